using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Picollo.Measurement;

/// <summary>
/// A fixed reference loop timed around the samples: how fast the machine ran during a measurement. A host in a slow mode
/// (another tenant, a frequency change) slows every quantile of a run for seconds at a time, which no statistic of the
/// run can tell from a regression; the same loop timed at recording and at verdict time can (docs/VERDICTS.md,
/// "Machines").
/// </summary>
/// <remarks>
/// The loop is a chain of dependent 64-bit multiply-adds: pure core speed, no memory traffic. It is timed
/// <see cref="Repeats"/> times and the fastest kept, since preemption only ever adds time; one timing costs about a
/// microsecond, so the probe costs a fraction of a millisecond. It is compiled fully optimized at once, so it never runs
/// tier-0 code.
/// </remarks>
internal static class MachineSpeed
{
    /// <summary>Multiply-adds per timing.</summary>
    private const int Steps = 2_000;

    /// <summary>Timings per probe.</summary>
    private const int Repeats = 48;

    private static ulong s_sink;

    /// <summary>Times the reference loop on the calling thread.</summary>
    /// <returns>Nanoseconds per 1,000 multiply-adds at the machine's current speed.</returns>
    public static double Probe()
    {
        double best = double.MaxValue;
        for (int i = 0; i < Repeats; i++)
        {
            long t0 = Stopwatch.GetTimestamp();
            s_sink += Chain(Steps);
            long t1 = Stopwatch.GetTimestamp();
            best = Math.Min(best, (t1 - t0) * 1e9 / Stopwatch.Frequency);
        }

        return best * 1_000 / Steps;
    }

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static ulong Chain(int steps)
    {
        ulong x = (ulong)steps;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        return x;
    }
}
