namespace Picollo.Baselines.Records;

/// <summary>
/// The contents of a <c>*.perf.json</c> baseline: one entry per machine, immutable. The JSON form is meant to be
/// committed and reviewed: keys in ordinal order (entries by machine id, counters and options by name), fields in
/// a fixed order, "\n" line ends, two-space indents, a final newline, a counter's statistics on one line and its
/// histogram on another (HdrHistogram's compressed V2 base64); about ten lines per counter (docs/TESTING.md, "The
/// baseline file").
/// </summary>
internal sealed class BaselineFile
{
    /// <summary>The format version written to and accepted from <c>"version"</c>.</summary>
    public const int FormatVersion = 2;

    /// <summary>
    /// Creates a file from entries; a later entry for the same machine id is merged into the earlier one (see
    /// <see cref="WithEntry"/>).
    /// </summary>
    /// <param name="entries">The entries.</param>
    public BaselineFile(IEnumerable<BaselineEntry> entries)
    {
        ArgumentNullException.ThrowIfNull(entries);
        var byId = new SortedDictionary<string, BaselineEntry>(StringComparer.Ordinal);
        foreach (BaselineEntry entry in entries)
            byId[entry.Machine.Id] = byId.TryGetValue(entry.Machine.Id, out BaselineEntry? existing) ? Merge(existing, entry) : entry;

        Entries = [.. byId.Values];
    }

    /// <summary>A file without entries.</summary>
    public static BaselineFile Empty { get; } = new([]);

    /// <summary>The entries, ordered by machine id (ordinal).</summary>
    public IReadOnlyList<BaselineEntry> Entries { get; }

    /// <summary>The entry of the machine with <paramref name="machineId"/>, or <see langword="null"/>.</summary>
    /// <param name="machineId">A <see cref="MachineFingerprint.Id"/>.</param>
    /// <returns>The entry or <see langword="null"/>.</returns>
    public BaselineEntry? Find(string machineId) => Entries.FirstOrDefault(e => e.Machine.Id == machineId);

    /// <summary>
    /// A copy with <paramref name="entry"/> merged in; other machines' entries are kept. An existing entry of the same
    /// machine takes the new record's options, time and counters, and keeps its counters the new record does not
    /// measure: a run that could not open hardware counters (or a test writing counters separately) does not erase them.
    /// </summary>
    /// <param name="entry">The entry to merge.</param>
    /// <returns>The merged file.</returns>
    public BaselineFile WithEntry(BaselineEntry entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        return new BaselineFile(Entries.Append(entry));
    }

    /// <summary>A copy without the entry of <paramref name="machineId"/>.</summary>
    /// <param name="machineId">A <see cref="MachineFingerprint.Id"/>.</param>
    /// <returns>The file without that entry.</returns>
    public BaselineFile WithoutMachine(string machineId) => new(Entries.Where(e => e.Machine.Id != machineId));

    private static BaselineEntry Merge(BaselineEntry existing, BaselineEntry update)
    {
        var counters = update.Record.Counters.ToList();
        counters.AddRange(existing.Record.Counters.Where(c => update.Record.Find(c.Name) is null));
        return update with { Record = update.Record with { Counters = counters } };
    }
}
