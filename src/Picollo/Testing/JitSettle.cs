using System.Diagnostics;
using System.Runtime;

namespace Picollo.Testing;

/// <summary>
/// Waits, before a perf test measures, until the process has stopped JIT-compiling for a moment. Right after a test the
/// runner reports its result on other threads (hundreds of methods compiled for the first time: output, attachments,
/// serialization), and tier-0 compilation anywhere in the process postpones the tier-1 promotion of the measured body:
/// in a user's xunit project a body ended its warmup at tier 0 in both measurements, with 339 methods compiled elsewhere
/// in the process during its samples, and read 20 % slower than its baseline. A pause, only while the process is
/// compiling, avoids it.
/// </summary>
internal static class JitSettle
{
    // No compilation in the process for this long counts as settled; never wait longer than the cap.
    private static readonly TimeSpan s_quiet = TimeSpan.FromMilliseconds(150);
    private static readonly TimeSpan s_cap = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan s_poll = TimeSpan.FromMilliseconds(10);

    /// <summary>Waits until no method was compiled for 150 ms, at most 2 s.</summary>
    /// <param name="cancellation">The test's cancellation.</param>
    /// <returns>How long it waited.</returns>
    public static TimeSpan Wait(CancellationToken cancellation)
    {
        long start = Stopwatch.GetTimestamp();
        long count = JitInfo.GetCompiledMethodCount(currentThread: false);
        long quietSince = start;
        while (Stopwatch.GetElapsedTime(quietSince) < s_quiet && Stopwatch.GetElapsedTime(start) < s_cap)
        {
            cancellation.ThrowIfCancellationRequested();
            Thread.Sleep(s_poll);
            long now = JitInfo.GetCompiledMethodCount(currentThread: false);
            if (now != count)
            {
                count = now;
                quietSince = Stopwatch.GetTimestamp();
            }
        }

        return Stopwatch.GetElapsedTime(start);
    }
}
