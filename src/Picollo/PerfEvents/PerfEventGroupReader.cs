using System.Runtime.InteropServices;

namespace Picollo.PerfEvents;

/// <summary>
/// One read() of a whole group in the format PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID:
/// <c>u64 nr; u64 time_enabled; u64 time_running; { u64 value; u64 id; } values[nr];</c>.
/// Values are matched to counters by id, never by position: the kernel lists the leader first and then the
/// siblings in its own list order, which is not a documented contract.
/// </summary>
internal static class PerfEventGroupReader
{
    /// <summary>A group is capped so the duplicate-id check fits on the stack.</summary>
    public const int MaxEvents = 64;

    /// <summary>EINTR retries before giving up (a signal storm, not a normal condition).</summary>
    public const int MaxInterruptedRetries = 100;

    private const int HeaderBytes = 3 * sizeof(ulong);
    private const int EntryBytes = 2 * sizeof(ulong);

    /// <summary>Bytes one read of a group of <paramref name="count"/> events returns.</summary>
    public static int BufferSize(int count) => HeaderBytes + (count * EntryBytes);

    /// <summary>
    /// Reads the group of the leader <paramref name="fd"/> into <paramref name="values"/> (same order as <paramref name="ids"/>).
    /// </summary>
    public static PerfGroupReadStatus Read(
        IPerfEventSyscalls syscalls,
        int fd,
        Span<byte> buffer,
        ReadOnlySpan<ulong> ids,
        Span<Interop.PerfEventValue> values,
        out int errno)
    {
        int bytes;
        int attempts = 0;
        do
        {
            bytes = syscalls.Read(fd, buffer);
        }
        while (bytes == -Interop.Errno.EINTR && ++attempts < MaxInterruptedRetries);

        if (bytes < 0)
        {
            errno = -bytes;
            return PerfGroupReadStatus.Failed;
        }

        errno = 0;
        return bytes == 0 ? PerfGroupReadStatus.EndOfFile : Parse(buffer[..bytes], ids, values);
    }

    /// <summary>
    /// Parses one group record; <paramref name="values"/> is written only when the result is <see cref="PerfGroupReadStatus.Ok"/> or
    /// partially otherwise.
    /// </summary>
    public static PerfGroupReadStatus Parse(ReadOnlySpan<byte> data, ReadOnlySpan<ulong> ids, Span<Interop.PerfEventValue> values)
    {
        if (ids.Length > MaxEvents || values.Length < ids.Length)
            throw new ArgumentException("At most " + MaxEvents + " events, one value slot per id.", nameof(ids));
        if (data.Length < HeaderBytes)
            return PerfGroupReadStatus.Truncated;

        ulong nr = MemoryMarshal.Read<ulong>(data);
        if (nr != (ulong)ids.Length)
            return PerfGroupReadStatus.CountMismatch;
        if (data.Length < BufferSize(ids.Length))
            return PerfGroupReadStatus.Truncated;

        // One enabled/running pair for the whole group: the kernel schedules a group all or nothing.
        ulong enabled = MemoryMarshal.Read<ulong>(data[8..]);
        ulong running = MemoryMarshal.Read<ulong>(data[16..]);
        Span<bool> seen = stackalloc bool[ids.Length];
        for (int i = 0; i < ids.Length; i++)
        {
            ReadOnlySpan<byte> entry = data.Slice(HeaderBytes + (i * EntryBytes), EntryBytes);
            ulong value = MemoryMarshal.Read<ulong>(entry);
            int index = ids.IndexOf(MemoryMarshal.Read<ulong>(entry[8..]));
            if (index < 0)
                return PerfGroupReadStatus.UnknownId;
            if (seen[index])
                return PerfGroupReadStatus.DuplicateId;
            seen[index] = true;
            values[index] = new Interop.PerfEventValue(value, enabled, running);
        }

        return PerfGroupReadStatus.Ok;
    }
}
