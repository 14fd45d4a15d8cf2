using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// A fixed reference loop timed between the samples: how fast the machine ran during a measurement. A host in a slow mode
/// (another tenant, a frequency change) slows every quantile of a run for seconds at a time, which no statistic of the
/// run can tell from a regression; the same loop timed at recording and at verdict time can (docs/VERDICTS.md,
/// "Machines").
/// </summary>
/// <remarks>
/// <para>
/// The loop is a chain of dependent 64-bit multiply-adds: pure core speed, no memory traffic. It is timed after every
/// <see cref="ReferenceProbes.Every"/>th sample, and the run's speed is the floor of those timings, the same quantile the
/// time verdicts judge the body by (<see cref="ReferenceProbes.FloorIndex"/>), so the reference and the body see the same
/// moments through the same statistic.
/// </para>
/// <para>
/// Short timings interleaved with the samples and read at the floor follow what the floor follows; longer or fewer ones
/// before the samples missed contention or followed bursts the floor never saw (docs/VERDICTS.md, "Machines and their
/// speed", has the runs).
/// </para>
/// </remarks>
internal static class MachineSpeed
{
    /// <summary>Multiply-adds per timing: about 55 µs at 1.1 ns per step, a fifth to a half of a typical 100-300 µs sample.</summary>
    public const int Steps = 50_000;

    private static ulong s_sink;

    /// <summary>Times the reference loop once on the calling thread.</summary>
    /// <returns>The <see cref="Stopwatch"/> ticks one chain of <see cref="Steps"/> multiply-adds took.</returns>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static long Time()
    {
        long t0 = Stopwatch.GetTimestamp();
        s_sink += Chain(Steps);
        return Stopwatch.GetTimestamp() - t0;
    }

    /// <summary>Nanoseconds per 1,000 multiply-adds for a timing of <paramref name="ticks"/>.</summary>
    public static double ToNanosecondsPerThousand(long ticks) => ticks * 1e9 / Stopwatch.Frequency * 1_000 / Steps;

    /// <summary>The floor of a few timings in a row: for a run too short to interleave any with its samples.</summary>
    /// <returns>Nanoseconds per 1,000 multiply-adds at the machine's current speed.</returns>
    public static double Probe() => ToNanosecondsPerThousand(ReferenceProbes.Floor(Time));

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static ulong Chain(int steps)
    {
        ulong x = (ulong)steps;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        return x;
    }
}
