using static Picollo.Measurement.EngineClock;

namespace Picollo.Measurement;

/// <summary>
/// What the sample loop writes: every counter's cumulative reading at each sample boundary, and each sample's wall time.
/// Allocated before the loop runs, so the loop allocates nothing.
/// </summary>
internal sealed class SampleReadings
{
    /// <summary>Room for <paramref name="samples"/> samples of <paramref name="width"/> counters.</summary>
    public SampleReadings(int samples, int width)
    {
        Boundaries = new ulong[(samples + 1) * width];
        Times = new long[samples];
        Width = width;
    }

    /// <summary>The readings, row by row: row s (of <see cref="Width"/> values) is the boundary before sample s.</summary>
    public ulong[] Boundaries { get; }

    /// <summary>Each sample's wall time in <see cref="System.Diagnostics.Stopwatch"/> ticks, boundary included.</summary>
    public long[] Times { get; }

    /// <summary>The counters read at each boundary.</summary>
    public int Width { get; }

    /// <summary>The samples the loop took.</summary>
    public int Taken { get; set; }

    /// <summary>The counter at <paramref name="slot"/> over sample <paramref name="sample"/>.</summary>
    /// <remarks>
    /// A multiplexed perf count is scaled by enabled/running, which can step back by a little between reads: a decrease
    /// is 0, never a wrapped-around 2^64.
    /// </remarks>
    public ulong Delta(int sample, int slot)
    {
        ulong before = Boundaries[(sample * Width) + slot], after = Boundaries[((sample + 1) * Width) + slot];
        return after >= before ? after - before : 0;
    }

    /// <summary>The median wall time of the samples taken, in nanoseconds; <see cref="double.NaN"/> when none was.</summary>
    public double MedianSampleNanoseconds()
    {
        if (Taken == 0)
            return double.NaN;
        long[] sorted = Times[..Taken];
        Array.Sort(sorted);
        return ToNanoseconds(sorted[(Taken - 1) / 2]);
    }
}
