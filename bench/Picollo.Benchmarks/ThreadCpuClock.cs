using System.Runtime.InteropServices;

namespace Picollo.Benchmarks;

/// <summary>
/// The calling thread's CPU time (Linux <c>clock_gettime(CLOCK_THREAD_CPUTIME_ID)</c>): compared with the wall
/// time of a run it tells whether a writer kept its core or sat preempted by another process.
/// </summary>
internal static partial class ThreadCpuClock
{
    private const int ClockThreadCpuTimeId = 3;

    /// <summary>Whether <see cref="NowNanos"/> measures anything on this platform.</summary>
    public static bool IsSupported { get; } = OperatingSystem.IsLinux() && Environment.Is64BitProcess;

    /// <summary>CPU nanoseconds the calling thread has run so far, or 0 when not <see cref="IsSupported"/>.</summary>
    public static long NowNanos()
    {
        if (!IsSupported || ClockGetTime(ClockThreadCpuTimeId, out TimeSpec time) != 0)
            return 0;
        return (time.Seconds * 1_000_000_000) + time.Nanoseconds;
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clockId, out TimeSpec time);

    // struct timespec on 64-bit Linux: two 64-bit fields.
    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
