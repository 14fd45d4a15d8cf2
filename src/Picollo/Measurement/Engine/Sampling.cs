using System.Diagnostics;
using System.Runtime;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Measurement.Conditions;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The sampling stage: the body's samples, inside a no-GC region when their allocation fits one, with the JIT activity
/// around them counted; and the sample loop itself, which the overhead calibration runs too.
/// </summary>
internal static class Sampling
{
    /// <summary>Takes the body's samples: <see cref="PerfOptions.Samples"/>, or fewer once past <paramref name="deadline"/>.</summary>
    /// <param name="options">The run's options: samples, the least samples, the no-GC region.</param>
    /// <param name="body">The measured body.</param>
    /// <param name="set">The counters read at each boundary.</param>
    /// <param name="operations">Operations per sample.</param>
    /// <param name="bytesPerOperation">The pilot's allocation estimate, which sizes the no-GC region.</param>
    /// <param name="deadline">The <see cref="Stopwatch"/> timestamp after which sampling stops once it has the least samples.</param>
    /// <param name="cancellation">Stops sampling between two samples; the no-GC region is ended before it throws.</param>
    /// <remarks>
    /// Every body gets reference probes between its samples (<see cref="ReferenceProbes"/>), outside what the samples count:
    /// the core loop and the branchy reference, and the allocation reference for a body that allocates.
    /// </remarks>
    internal static SamplingOutcome Run<TLoop>(
        PerfOptions options, TLoop body, CounterSet set, long operations, double bytesPerOperation, long deadline,
        CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        bool allocates = bytesPerOperation > 0;
        var readings = new SampleReadings(options.Samples, set.Count, ReferenceProbes.ProbesFor(options.Samples), allocates);
        int minSamples = Math.Min(options.MinSamples, options.Samples);
        double expectedBytes = (bytesPerOperation * operations * options.Samples)
            + (readings.AllocationTicks.Length * (double)AllocationSpeed.BytesPerProbe);

        // The probes run once before the samples, so their first call's JIT compilation is not a compilation on the
        // measuring thread during sampling (which says the measured code changed: the first measurement of every process
        // reported two of them).
        MachineSpeed.Time();
        BranchSpeed.Time();
        if (allocates)
            AllocationSpeed.Allocate(readings.ProbeSink);
        SettleGC();
        bool noGC = TryStartNoGCRegion(options, expectedBytes, out string? noGCNote);
        JitCounts jit = JitCounts.Now();
        try
        {
            readings.Taken = Loop(body, set, operations, readings, minSamples, deadline, cancellation);
        }
        finally
        {
            jit = JitCounts.Now() - jit;
            noGCNote = EndNoGCRegion(noGC) ?? noGCNote;
        }

        cancellation.ThrowIfCancellationRequested();
        readings.RemoveProbeGaps();

        return new SamplingOutcome(readings, jit, noGC && noGCNote is null, noGCNote);
    }

    /// <summary>
    /// The sample loop: one read of every counter at each boundary, straight into <paramref name="readings"/>, and nothing
    /// else between boundaries but the body, a clock read for the deadline and a look at the cancellation. When the readings
    /// have room for reference probes (<see cref="ReferenceProbes"/>), every <see cref="ReferenceProbes.Every"/>th sample is
    /// followed by a timed probe (the core loop and the branchy reference; the allocation reference too when the readings have
    /// room for it) and a fresh
    /// reading of every counter, so the next sample starts after it; what the probe counted is taken out of the later
    /// boundaries after the loop (<see cref="SampleReadings.RemoveProbeGaps"/>). Allocates nothing but the allocation
    /// probe's own arrays.
    /// </summary>
    /// <returns>The samples taken (fewer than the readings have room for only past the deadline or on cancellation).</returns>
    /// <remarks>
    /// Fully optimized at its first call, like the operation loops: at tier 0 it ran the calibration unoptimized and was
    /// replaced by on-stack replacement in the middle of a 20,000-sample run, so the boundary cost changed under the
    /// samples. The calibration runs this same loop without probes, so the one comparison a sample pays for them is in the
    /// overhead it subtracts.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal static int Loop<TLoop>(
        TLoop loop, CounterSet set, long operations, SampleReadings readings, int minSamples, long deadline, CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        ulong[] boundaries = readings.Boundaries;
        long[] times = readings.Times;
        long[] speedTicks = readings.SpeedTicks;
        long[] branchTicks = readings.BranchTicks;
        long[] allocationTicks = readings.AllocationTicks;
        ulong[] gaps = readings.ProbeGaps;
        object[] sink = readings.ProbeSink;
        int width = readings.Width;
        int samples = times.Length;
        int probes = 0;
        set.ReadCumulative(boundaries.AsSpan(0, width));
        long previous = Stopwatch.GetTimestamp();
        int s = 0;
        while (s < samples)
        {
            loop.Run(operations);
            set.ReadCumulative(boundaries.AsSpan((s + 1) * width, width));
            long now = Stopwatch.GetTimestamp();
            times[s] = now - previous;
            previous = now;
            s++;
            if ((now > deadline && s >= minSamples) || cancellation.IsCancellationRequested)
                break;

            if (probes == speedTicks.Length || s % ReferenceProbes.Every != 0)
                continue;

            speedTicks[probes] = MachineSpeed.Time();
            branchTicks[probes] = BranchSpeed.Time();
            if (probes < allocationTicks.Length)
            {
                long before = Stopwatch.GetTimestamp();
                AllocationSpeed.Allocate(sink);
                allocationTicks[probes] = Stopwatch.GetTimestamp() - before;
            }

            Span<ulong> gap = gaps.AsSpan(probes * width, width);
            set.ReadCumulative(gap);
            ReadOnlySpan<ulong> end = boundaries.AsSpan(s * width, width);
            for (int i = 0; i < width; i++)
                gap[i] -= end[i];
            probes++;
            previous = Stopwatch.GetTimestamp();
        }

        readings.ProbesTaken = probes;
        return s;
    }

    /// <summary>Collects twice around the finalizers, so no collection owed to earlier garbage lands in the samples.</summary>
    internal static void SettleGC()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    /// <summary>
    /// Whether a no-GC region note is a caveat the run's <see cref="PerfRunInfo.Notes"/> must carry. Not the one for a body
    /// that allocates more than <see cref="PerfOptions.NoGCRegionMaxBytes"/> in its samples: it came with every allocating
    /// test, whose fix is no knob of the test attributes, and it is no caveat on the numbers: such a body's
    /// collections are part of its cost, gen0-collections counts them, and the time verdicts judge the floor of the
    /// samples, which a collection does not reach. <see cref="PerfRunInfo.NoGCRegionNote"/> keeps it for the caller who asks.
    /// </summary>
    internal static bool IsCaveat(string? noGCRegionNote) =>
        noGCRegionNote is not null && !noGCRegionNote.StartsWith(MeasurementMessages.NoGCRegionOverLimitStart, StringComparison.Ordinal);

    // The note says why no region was used when it was asked for; null when it was started.
    internal static bool TryStartNoGCRegion(PerfOptions options, double expectedBytes, out string? note)
    {
        note = null;
        if (!options.UseNoGCRegion)
            return false;
        if (expectedBytes > options.NoGCRegionMaxBytes)
        {
            note = MeasurementMessages.NoGCRegionOverLimit(expectedBytes, options.NoGCRegionMaxBytes);
            return false;
        }

        // Twice the estimate plus room for other threads' allocations, which count against the same region.
        long size = Math.Max((long)(expectedBytes * 2) + (1L << 20), 4L << 20);
        try
        {
            if (GC.TryStartNoGCRegion(size))
                return true;
            note = MeasurementMessages.NoGCRegionNotReserved();
        }
        catch (Exception e) when (e is ArgumentOutOfRangeException or InvalidOperationException)
        {
            note = "No no-GC region: " + e.Message;
        }

        return false;
    }

    internal static string? EndNoGCRegion(bool started)
    {
        if (!started)
            return null;
        if (GCSettings.LatencyMode != GCLatencyMode.NoGCRegion)
            return MeasurementMessages.NoGCRegionLeft();
        GC.EndNoGCRegion();
        return null;
    }
}
