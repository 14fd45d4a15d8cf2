using Picollo.Baselines.Records;
using Picollo.Baselines.Storage.Serialization;

namespace Picollo.Baselines.Storage;

/// <summary>
/// A baseline's received file (<c>*.received.perf.json</c>): what the baseline would be if accepted, every machine's pending
/// entry beside the baseline's own, so that renaming it accepts them all (docs/ARCHITECTURE.md, "Files"). Written and
/// pruned under the baseline folder's lock.
/// </summary>
internal static class ReceivedFile
{
    // The received file is what the baseline would be if accepted: the baseline's entries, the entries other
    // machines (or processes) left pending in the received file, and this entry. Renaming it accepts them all.
    /// <summary>
    /// Writes the received file: the baseline's entries, those pending in the received file, and <paramref name="entries"/>.
    /// </summary>
    /// <param name="baselinePath">The baseline.</param>
    /// <param name="receivedPath">Its received file.</param>
    /// <param name="entries">The entries of this measurement.</param>
    /// <param name="lockTimeout">How long to wait for the baseline folder's lock.</param>
    public static void Write(string baselinePath, string receivedPath, IReadOnlyList<BaselineEntry> entries, TimeSpan lockTimeout)
    {
        using (BaselineFileLock.Acquire(baselinePath, lockTimeout))
        {
            BaselineFile baseline = BaselineJson.Read(baselinePath) ?? BaselineFile.Empty;
            BaselineFile received = new(baseline.Entries.Concat(Read(receivedPath)?.Entries ?? []));
            foreach (BaselineEntry entry in entries)
                received = received.WithEntry(entry);
            BaselineFileWriter.WriteAtomically(receivedPath, received.ToJson());
        }
    }

    /// <summary>Drops the pending entries of <paramref name="machineIds"/> from the received file, if there is one.</summary>
    /// <param name="baselinePath">The baseline.</param>
    /// <param name="receivedPath">Its received file.</param>
    /// <param name="machineIds">The machines whose measurement passed.</param>
    /// <param name="lockTimeout">How long to wait for the baseline folder's lock.</param>
    public static void RemoveEntries(string baselinePath, string receivedPath, IReadOnlyList<string> machineIds, TimeSpan lockTimeout)
    {
        // The common case, nothing pending, must not take the lock.
        if (!File.Exists(receivedPath))
            return;

        using (BaselineFileLock.Acquire(baselinePath, lockTimeout))
        {
            foreach (string machineId in machineIds)
            {
                if (File.Exists(receivedPath))
                    RemoveEntryLocked(BaselineJson.Read(baselinePath) ?? BaselineFile.Empty, receivedPath, machineId);
            }
        }
    }

    /// <summary>Drops this machine's pending entry; deletes the file once nothing in it differs from the baseline.</summary>
    /// <param name="baseline">The baseline as it is now, read under its folder's lock, which the caller holds.</param>
    /// <param name="receivedPath">The received file.</param>
    /// <param name="machineId">The machine.</param>
    public static void RemoveEntryLocked(BaselineFile baseline, string receivedPath, string machineId)
    {
        BaselineFile? received = Read(receivedPath);
        if (received is null)
        {
            File.Delete(receivedPath);
            return;
        }

        if (received.Find(machineId) is not null)
        {
            // This machine's baseline entry (if any) is the truth now; the received copy of it is stale.
            received = received.WithoutMachine(machineId);
            if (baseline.Find(machineId) is { } current)
                received = received.WithEntry(current);
        }

        bool pending = received.Entries.Any(e => baseline.Find(e.Machine.Id) is not { } b ||
            BaselineJsonCodec.EntryToJson(b) != BaselineJsonCodec.EntryToJson(e));
        if (pending)
            BaselineFileWriter.WriteAtomically(receivedPath, received.ToJson());
        else
            File.Delete(receivedPath);
    }

    // Received files are Picollo's own transient output (git-ignored): an unreadable one is replaced, not reported.
    private static BaselineFile? Read(string receivedPath)
    {
        try
        {
            return BaselineJson.Read(receivedPath);
        }
        catch (BaselineFormatException)
        {
            return null;
        }
    }
}
