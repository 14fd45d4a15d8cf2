using Picollo.Measurement.Conditions;
using static Picollo.Measurement.Engine.EngineClock;

namespace Picollo.Measurement.Engine;

/// <summary>
/// What the sample loop writes: every counter's cumulative reading at each sample boundary, and each sample's wall time.
/// Allocated before the loop runs, so the loop allocates nothing.
/// </summary>
internal sealed class SampleReadings
{
    // The samples whose probes say what allocation speed the floor (P10) was measured at: the fastest fifth.
    private const double FloorBand = 0.2;

    /// <summary>Room for <paramref name="samples"/> samples of <paramref name="width"/> counters.</summary>
    /// <param name="samples">The most samples the loop takes.</param>
    /// <param name="width">The counters read at each boundary.</param>
    /// <param name="probes">Room for this many reference probes between samples (<see cref="ReferenceProbes"/>); 0 for none.</param>
    /// <param name="allocationProbes">Whether each probe times the allocation reference too (a body that allocates).</param>
    public SampleReadings(int samples, int width, int probes = 0, bool allocationProbes = false)
    {
        Boundaries = new ulong[(samples + 1) * width];
        Times = new long[samples];
        Width = width;
        SpeedTicks = new long[probes];
        BranchTicks = new long[probes];
        AllocationTicks = new long[allocationProbes ? probes : 0];
        ProbeGaps = new ulong[probes * width];
        ProbeSink = allocationProbes && probes > 0 ? new object[16] : [];
    }

    /// <summary>Where the allocation probes' arrays go (16 slots, so they die young like most garbage); empty without them.</summary>
    public object[] ProbeSink { get; }

    /// <summary>
    /// Each probe's timing of the core reference loop (<see cref="MachineSpeed"/>), in
    /// <see cref="System.Diagnostics.Stopwatch"/> ticks.
    /// </summary>
    public long[] SpeedTicks { get; }

    /// <summary>Each probe's timing of the branchy reference (<see cref="BranchSpeed"/>), in ticks.</summary>
    public long[] BranchTicks { get; }

    /// <summary>
    /// Each probe's timing of the allocation reference (<see cref="AllocationSpeed"/>) in ticks; empty for a body that
    /// does not allocate.
    /// </summary>
    public long[] AllocationTicks { get; }

    /// <summary>
    /// What each probe added to every counter, row by row as <see cref="Boundaries"/>: the readings after a probe are
    /// shifted back by these (<see cref="RemoveProbeGaps"/>) so no sample counts a probe.
    /// </summary>
    public ulong[] ProbeGaps { get; }

    /// <summary>The probes the loop took; probe k follows boundary row (k + 1) × <see cref="ReferenceProbes.Every"/>.</summary>
    public int ProbesTaken { get; set; }

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

    /// <summary>
    /// Shifts every boundary after a probe back by what the probes before it counted, so each sample's delta is the body's
    /// alone. Counters wrap modulo 2^64 on both sides of the subtraction, so a multiplexed count that stepped back by a
    /// little during a probe still comes out right.
    /// </summary>
    public void RemoveProbeGaps()
    {
        if (ProbesTaken == 0)
            return;

        var offset = new ulong[Width];
        int next = 0;
        for (int row = 1; row <= Taken; row++)
        {
            while (next < ProbesTaken && row > (next + 1) * ReferenceProbes.Every)
            {
                for (int slot = 0; slot < Width; slot++)
                    offset[slot] += ProbeGaps[(next * Width) + slot];
                next++;
            }

            for (int slot = 0; slot < Width; slot++)
                Boundaries[(row * Width) + slot] -= offset[slot];
        }
    }

    /// <summary>
    /// The machine's speed over the samples: the floor of the core reference timings (<see cref="ReferenceProbes.FloorIndex"/>)
    /// in nanoseconds per 1,000 multiply-adds, over the probes from <paramref name="first"/> (all by default) up to
    /// <paramref name="end"/>; <see cref="double.NaN"/> when that range holds none.
    /// </summary>
    public double MachineSpeedNanoseconds(int first = 0, int end = -1)
    {
        long floor = Floor(SpeedTicks, first, end < 0 ? ProbesTaken : end);
        return floor < 0 ? double.NaN : MachineSpeed.ToNanosecondsPerThousand(floor);
    }

    /// <summary>
    /// How fast branchy code ran over the samples: the floor of the branchy reference's timings (<see cref="BranchSpeed"/>)
    /// in nanoseconds per 1,000 characters; <see cref="double.NaN"/> when no probe was taken.
    /// </summary>
    public double BranchSpeedNanoseconds()
    {
        long floor = Floor(BranchTicks, 0, ProbesTaken);
        return floor < 0 ? double.NaN : BranchSpeed.ToNanosecondsPerThousand(floor);
    }

    /// <summary>
    /// The allocation speed where the floor is: the median, per allocation in nanoseconds, of the allocation probes taken
    /// right after the fastest fifth of the samples (by wall time; each sample counted with the probe that follows its
    /// group of <see cref="ReferenceProbes.Every"/>); the median of all probes when no such sample has one;
    /// <see cref="double.NaN"/> when no probe allocated.
    /// </summary>
    /// <remarks>
    /// Time is judged at the floor (P10), so the reference must describe the moments the floor comes from. An allocating
    /// body can switch between two allocation speeds inside one run, and the median of all probes then misses the floor's
    /// moves (docs/VERDICTS.md, "Allocation speed"). A median, not a floor, of these short probes: their floor followed the
    /// body's slow modes less well.
    /// </remarks>
    public double AllocationNanoseconds()
    {
        int probes = AllocationTicks.Length == 0 ? 0 : ProbesTaken;
        if (probes == 0)
            return double.NaN;

        long cut = Taken > 0 ? Quantile(Times[..Taken], FloorBand) : long.MinValue;
        long[] beside = new long[Taken];
        int count = 0;
        for (int s = 0; s < Taken; s++)
        {
            int probe = s / ReferenceProbes.Every;
            if (Times[s] <= cut && probe < probes)
                beside[count++] = AllocationTicks[probe];
        }

        long[] timings = count > 0 ? beside[..count] : AllocationTicks[..probes];
        return ToNanoseconds(Quantile(timings, 0.5)) / AllocationSpeed.Allocations;
    }

    /// <summary>The median wall time of the samples taken, in nanoseconds; <see cref="double.NaN"/> when none was.</summary>
    public double MedianSampleNanoseconds()
    {
        return Taken == 0 ? double.NaN : ToNanoseconds(Quantile(Times[..Taken], 0.5));
    }

    // The lower quantile q of the values (sorted in place), by rank (count - 1) * q.
    private static long Quantile(long[] values, double q)
    {
        Array.Sort(values);
        return values[(int)((values.Length - 1) * q)];
    }

    // The floor of timings [first, end), or -1 when the range is empty.
    private static long Floor(long[] timings, int first, int end)
    {
        if (end <= first)
            return -1;
        long[] sorted = timings[first..end];
        Array.Sort(sorted);
        return sorted[ReferenceProbes.FloorIndex(sorted.Length)];
    }
}
