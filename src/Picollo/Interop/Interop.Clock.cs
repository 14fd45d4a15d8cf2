using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>POSIX clocks through libc's <c>clock_gettime</c> (a vDSO call for most clocks on Linux).</summary>
/// <remarks>
/// No SuppressGCTransition here even though the vDSO path is fast: the rule stays "only our own native
/// readers", because a clock the vDSO cannot serve (e.g. a thread CPU clock) falls back to a real syscall.
/// </remarks>
internal static partial class Clock
{
    /// <summary>Linux <c>CLOCK_THREAD_CPUTIME_ID</c>: CPU time consumed by the calling thread.</summary>
    internal const int CLOCK_THREAD_CPUTIME_ID = 3;

    /// <summary>Linux <c>CLOCK_MONOTONIC_RAW</c>: monotonic, not slewed by NTP; what the TSC is calibrated against.</summary>
    internal const int CLOCK_MONOTONIC_RAW = 4;

    /// <summary><c>struct timespec</c> on 64-bit Linux: two 64-bit fields.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct TimeSpec
    {
        /// <summary>Whole seconds.</summary>
        internal long Seconds;

        /// <summary>Nanoseconds, 0 … 999,999,999.</summary>
        internal long Nanoseconds;
    }

    /// <summary><c>int clock_gettime(clockid_t, struct timespec*)</c>: 0 on success, -1 with errno otherwise.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "clock_gettime")]
    internal static unsafe partial int ClockGetTime(int clockId, TimeSpec* time);

    /// <summary>Reads <paramref name="clockId"/> in nanoseconds.</summary>
    /// <exception cref="InvalidOperationException">The clock is not supported by this kernel.</exception>
    internal static unsafe ulong GetNanoseconds(int clockId)
    {
        TimeSpec time;
        if (ClockGetTime(clockId, &time) != 0)
        {
            // errno is read directly (no SetLastError marshalling on the import, which would tax every successful call);
            // only the error message depends on it.
            throw new InvalidOperationException($"clock_gettime({clockId}) failed: errno {Marshal.GetLastSystemError()}.");
        }

        // Two's complement wrap is impossible here: seconds since boot (or thread CPU seconds) × 1e9 fit in 63 bits for 292 years.
        return (ulong)time.Seconds * 1_000_000_000UL + (ulong)time.Nanoseconds;
    }
}
