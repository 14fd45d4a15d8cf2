namespace Picollo.Counters;

/// <summary>
/// TSC-frequency detection from the kernel's TSC-to-nanoseconds conversion (<c>time_mult</c>, <c>time_shift</c>) on a
/// perf_event mmap page. The kernel publishes it, and sets <c>cap_user_time</c>, only when its sched_clock runs on a
/// stable TSC: then the TSC frequency is known exactly without calibrating (1e9 · 2^time_shift / time_mult Hz).
/// </summary>
internal static class PerfTimeConversion
{
    // struct perf_event_mmap_page (linux/perf_event.h), pinned by _Static_assert in native/perf_mmap.c.
    private const int LockOffset = 8;
    private const int CapabilitiesOffset = 40;
    private const int TimeShiftOffset = 50;
    private const int TimeMultOffset = 52;
    private const ulong CapUserTime = 1UL << 3;

    /// <summary>The TSC frequency the kernel's conversion implies, when this machine publishes one (see <see cref="TryRead"/>).</summary>
    /// <returns>
    /// The frequency, or <see langword="null"/> without a page carrying <c>cap_user_time</c>, or when the implied rate is
    /// absurd: a kernel whose clock is not the TSC; the caller then falls through to calibration.
    /// </returns>
    public static TscFrequency? TryReadFrequency()
    {
        if (!TryRead(out uint timeMult, out ushort timeShift))
            return null;
        double hertz = 1e9 * Math.Pow(2, timeShift) / timeMult;
        return hertz is >= TscFrequency.MinHertz and <= TscFrequency.MaxHertz
            ? TscFrequency.FromPerfTimeConversion(timeMult, timeShift)
            : null;
    }

    /// <summary>
    /// Opens a user-only task-clock event on the calling thread (software events open everywhere perf_event
    /// exists), maps its first page and decodes it; cycles are tried next when the kernel only fills the time
    /// fields for CPU PMU events. Every fd and mapping is released before returning.
    /// </summary>
    /// <returns><see langword="true"/> with the conversion when a page had <c>cap_user_time</c>.</returns>
    public static bool TryRead(out uint timeMult, out ushort timeShift)
    {
        timeMult = 0;
        timeShift = 0;
        if (!OperatingSystem.IsLinux())
            return false;

        return TryReadFrom(Interop.PerfEvent.PERF_TYPE_SOFTWARE, Interop.PerfEvent.PERF_COUNT_SW_TASK_CLOCK, out timeMult, out timeShift)
            || TryReadFrom(Interop.PerfEvent.PERF_TYPE_HARDWARE, Interop.PerfEvent.PERF_COUNT_HW_CPU_CYCLES, out timeMult, out timeShift);
    }

    /// <summary>Decodes a page held in memory (for tests: the layout is the kernel's).</summary>
    internal static unsafe bool TryDecode(ReadOnlySpan<byte> page, out uint timeMult, out ushort timeShift)
    {
        if (page.Length < TimeMultOffset + sizeof(uint))
            throw new ArgumentException("A perf_event mmap page is at least 56 bytes long.", nameof(page));
        fixed (byte* p = page)
            return TryDecode(p, out timeMult, out timeShift);
    }

    /// <summary>Decodes one mapped page under its seqlock: the fields are rewritten whenever the event is scheduled in.</summary>
    internal static unsafe bool TryDecode(byte* page, out uint timeMult, out ushort timeShift)
    {
        uint sequence;
        ulong capabilities;
        do
        {
            sequence = Volatile.Read(ref *(uint*)(page + LockOffset));
            capabilities = Volatile.Read(ref *(ulong*)(page + CapabilitiesOffset));
            timeMult = Volatile.Read(ref *(uint*)(page + TimeMultOffset));
            timeShift = Volatile.Read(ref *(ushort*)(page + TimeShiftOffset));
            Interlocked.MemoryBarrier();
        }
        while (Volatile.Read(ref *(uint*)(page + LockOffset)) != sequence);

        return (capabilities & CapUserTime) != 0 && timeMult != 0;
    }

    private static unsafe bool TryReadFrom(uint type, ulong config, out uint timeMult, out ushort timeShift)
    {
        timeMult = 0;
        timeShift = 0;
        int fd = Interop.PerfEvent.OpenCounting(
            type, config, Interop.PerfEventAttr.FlagExcludeKernel | Interop.PerfEventAttr.FlagExcludeHv, out _);
        if (fd < 0)
            return false;

        try
        {
            // One page: the metadata page alone, no ring buffer, read-only.
            nuint size = (nuint)Environment.SystemPageSize;
            nint page = Interop.Mmap.Map(0, size, Interop.Mmap.PROT_READ, Interop.Mmap.MAP_SHARED, fd, 0);
            if (page == Interop.Mmap.MAP_FAILED)
                return false;
            try
            {
                return TryDecode((byte*)page, out timeMult, out timeShift);
            }
            finally
            {
                _ = Interop.Mmap.Unmap(page, size);
            }
        }
        finally
        {
            _ = Interop.Fd.Close(fd);
        }
    }
}
