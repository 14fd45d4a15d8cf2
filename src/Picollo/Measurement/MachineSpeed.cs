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
/// <para>
/// The loop is a chain of dependent 64-bit multiply-adds: pure core speed, no memory traffic. Each timing lasts about as
/// long as a typical sample (60–110 µs), and the median of <see cref="Repeats"/> timings is kept. A first version kept the
/// fastest of many 2 µs timings: it saw nothing while the samples of a chain body ran 18 % slower for seconds at a time
/// (bench verdicts, an "idle" machine), because the contention that slowed them (a busy sibling hyperthread on the host)
/// comes and goes faster than a sample lasts, and the fastest short timing always slipped between its bursts. A timing as
/// long as a sample averages over the same bursts the samples do.
/// </para>
/// <para>The probe costs about 2 ms, taken twice per measurement. It is compiled fully optimized at once.</para>
/// </remarks>
internal static class MachineSpeed
{
    /// <summary>Multiply-adds per timing: about a sample's length.</summary>
    private const int Steps = 100_000;

    /// <summary>Timings per probe; the median is kept.</summary>
    private const int Repeats = 21;

    private static ulong s_sink;

    /// <summary>Times the reference loop on the calling thread.</summary>
    /// <returns>Nanoseconds per 1,000 multiply-adds at the machine's current speed.</returns>
    public static double Probe()
    {
        Span<double> timings = stackalloc double[Repeats];
        for (int i = 0; i < Repeats; i++)
        {
            long t0 = Stopwatch.GetTimestamp();
            s_sink += Chain(Steps);
            long t1 = Stopwatch.GetTimestamp();
            timings[i] = (t1 - t0) * 1e9 / Stopwatch.Frequency;
        }

        // The median: a preemption spoils a timing or two; contention that lasts longer than that is what the probe is for.
        timings.Sort();
        return timings[Repeats / 2] * 1_000 / Steps;
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
