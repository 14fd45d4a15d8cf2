using System.Diagnostics;
using System.Globalization;
using System.Runtime;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Measurement;

/// <summary>The sampling engine behind <see cref="Perf"/>: warmup → pilot → overhead calibration → samples.</summary>
internal static class PerfEngine
{
    /// <summary>The largest share of a sample the boundary may cost: the pilot's target.</summary>
    internal const double BoundaryShare = 0.01;

    // Back-to-back reads timed by the pilot to estimate the boundary cost; the fastest of several rounds wins, as
    // preemption only ever adds time.
    private const int BoundaryReads = 32;
    private const int BoundaryRounds = 5;

    // The pilot aims below 3/4 of the boundary share: its estimate is the fastest of three runs, while samples are timed
    // at their median, and the boundary costs more after the body has evicted the reads' code and data from the caches.
    private const double PilotMargin = 0.75;

    // One measurement at a time per process (see Perf's remarks). A Lock rather than a SemaphoreSlim: it knows its
    // owner, so a nested call can be refused instead of deadlocking.
    private static readonly Lock s_gate = new();

    internal static PerfResult Run<TLoop>(PerfOptions options, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop
    {
        ArgumentNullException.ThrowIfNull(options);
        if (s_gate.IsHeldByCurrentThread)
            throw new InvalidOperationException("Perf.Measure was called from inside a measured body: measurements cannot nest.");

        using (s_gate.EnterScope())
            return RunExclusive(options, body, empty);
    }

    private static PerfResult RunExclusive<TLoop>(PerfOptions options, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop
    {
        DateTime timestamp = DateTime.UtcNow;
        long start = Stopwatch.GetTimestamp();
        long budgetTicks = ToStopwatchTicks(options.TimeBudget);
        var notes = new List<string>();

        using ThreadPinning pinning = options.PinThread ? ThreadPinning.PinToCurrentCpu() : ThreadPinning.None();
        if (pinning.FailureReason is { } pinningFailure)
            notes.Add(pinningFailure);
        if (RuntimeCounterSource.AllocatedBytesCaveat is { } caveat)
            notes.Add(caveat);

        // Opened after pinning and on this thread: the perf group counts the calling thread (pid 0).
        using CounterPlan plan = CounterPlan.Open(options.EffectiveCounters);
        CounterSet set = plan.Set;
        int width = set.Count;
        var scratch = new ulong[Math.Max(width, 1)];

        WarmupOutcome warmup = Warmup.Run(options, body, empty, set, scratch, start, budgetTicks);
        if (warmup.Note is not null)
            notes.Add(warmup.Note);
        // Warmup outlasts half the budget only while the body's tier-1 code is still to come (Warmup.TierUpWait): the pilot
        // and the samples keep their share of the budget after that wait.
        long budgetStart = start + ToStopwatchTicks(warmup.BudgetExtension);
        (double boundaryNs, double operationNs, double bytesPerOperation) = Pilot(body, set, scratch, budgetTicks / 20);

        long operations = options.OperationsPerSample;
        bool boundByBudget = false;
        if (operations == 0)
        {
            double remainingNs = Math.Max(0, ToNanoseconds(budgetTicks - (Stopwatch.GetTimestamp() - budgetStart)));
            long wanted = (long)Math.Ceiling(boundaryNs / (BoundaryShare * PilotMargin) / Math.Max(operationNs, 0.01));
            long affordable = (long)Math.Floor(remainingNs * 0.8 / options.Samples / Math.Max(operationNs, 0.01));
            operations = Math.Max(1, Math.Min(wanted, affordable));
            boundByBudget = operations < wanted;
        }

        int minSamples = Math.Min(options.MinSamples, options.Samples);
        long deadline = budgetStart + (2 * budgetTicks);

        SettleGC();
        var calibration = new ulong[(options.CalibrationSamples + 1) * width];
        var calibrationTimes = new long[options.CalibrationSamples];
        _ = Sample(empty, set, operations, calibration, calibrationTimes, options.CalibrationSamples, options.CalibrationSamples, long.MaxValue, width);

        var readings = new ulong[(options.Samples + 1) * width];
        var times = new long[options.Samples];
        SettleGC();
        bool noGC = TryStartNoGCRegion(options, bytesPerOperation * operations * options.Samples, out string? noGCNote);
        int taken;
        JitCounts samplingJit = JitCounts.Now();
        try
        {
            taken = Sample(body, set, operations, readings, times, options.Samples, minSamples, deadline, width);
        }
        finally
        {
            samplingJit = JitCounts.Now() - samplingJit;
            noGCNote = EndNoGCRegion(noGC) ?? noGCNote;
        }

        if (noGCNote is not null)
            notes.Add(noGCNote);
        if (SamplingJitNote(samplingJit, warmup.End) is { } jitNote)
            notes.Add(jitNote);
        if (taken < options.Samples)
        {
            boundByBudget = true;
            notes.Add(string.Create(CultureInfo.InvariantCulture, $"Sampling stopped at twice the time budget ({options.TimeBudget.TotalSeconds:0.###} s) after {taken:N0} of {options.Samples:N0} samples."));
        }
        else if (boundByBudget)
        {
            notes.Add(string.Create(CultureInfo.InvariantCulture, $"The time budget capped the operations per sample at {operations:N0}: the sample boundary costs more than {BoundaryShare:P0} of a sample."));
        }

        double multiplexing = double.NaN;
        var counters = new CounterResult[plan.Descriptors.Length];
        for (int i = 0; i < counters.Length; i++)
        {
            CounterDescriptor descriptor = plan.Descriptors[i];
            int slot = plan.Slots[i];
            if (slot < 0)
            {
                counters[i] = CounterResult.Unavailable(descriptor, options.RelativeError);
                continue;
            }

            if (descriptor.Kind is CounterKind.Hardware or CounterKind.HardwareCache or CounterKind.Raw or CounterKind.Software)
                multiplexing = MultiplexingRatio(plan, descriptor.Name);
            counters[i] = BuildResult(descriptor, slot, width, operations, readings, taken, calibration, options, multiplexing);
            multiplexing = double.NaN;
        }

        var run = new PerfRunInfo(
            operations,
            taken,
            warmup.Operations,
            warmup.Duration,
            warmup.End,
            Stopwatch.GetElapsedTime(start),
            boundaryNs,
            operationNs,
            MedianSampleNanoseconds(times, taken),
            boundByBudget,
            pinning.Cpu,
            pinning.FailureReason,
            noGC && noGCNote is null,
            noGCNote,
            samplingJit.Process,
            samplingJit.Thread,
            timestamp,
            notes.AsReadOnly());
        return new PerfResult(counters, options, run);
    }

    /// <summary>
    /// Estimates the boundary cost (one read of every counter) and one operation's time and allocation, running the body in
    /// doubling batches until a batch is long enough that a boundary would cost less than <see cref="BoundaryShare"/> of it,
    /// or reaches <paramref name="capTicks"/>.
    /// </summary>
    private static (double BoundaryNs, double OperationNs, double BytesPerOperation) Pilot<TLoop>(TLoop body, CounterSet set, ulong[] scratch, long capTicks)
        where TLoop : struct, IOperationLoop
    {
        double boundaryNs = double.MaxValue;
        for (int round = 0; round < BoundaryRounds; round++)
        {
            long t0 = Stopwatch.GetTimestamp();
            for (int i = 0; i < BoundaryReads; i++)
                set.ReadCumulative(scratch);
            boundaryNs = Math.Min(boundaryNs, ToNanoseconds(Stopwatch.GetTimestamp() - t0) / BoundaryReads);
        }

        double targetNs = boundaryNs / (BoundaryShare * PilotMargin);
        double capNs = Math.Max(ToNanoseconds(capTicks), targetNs);
        long count = 1;
        while (true)
        {
            // The fastest of three runs of the same batch: preemption only adds time.
            double batchNs = double.MaxValue;
            long bytes = long.MaxValue;
            for (int repeat = 0; repeat < 3; repeat++)
            {
                long allocated = GC.GetAllocatedBytesForCurrentThread();
                long t0 = Stopwatch.GetTimestamp();
                body.Run(count);
                long t1 = Stopwatch.GetTimestamp();
                bytes = Math.Min(bytes, GC.GetAllocatedBytesForCurrentThread() - allocated);
                batchNs = Math.Min(batchNs, ToNanoseconds(t1 - t0));
                if (batchNs >= capNs)
                    break;
            }

            if (batchNs >= targetNs || batchNs >= capNs || count >= (1L << 40))
                return (boundaryNs, batchNs / count, (double)bytes / count);

            // Jump close to the target instead of doubling all the way (a 1 ns body would need many rounds).
            long scaled = batchNs <= 0 ? count * 16 : (long)Math.Ceiling(count * targetNs / batchNs * 1.1);
            count = Math.Clamp(scaled, count * 2, count * 1024);
        }
    }

    // Compilation on the measuring thread during sampling is certain evidence that the samples ran changing code. Compilation
    // elsewhere is not, after a warmup that saw the body's final code: background tier-1 compilations of the engine's own
    // and the JIT listener's methods, and of anything else, landed in 0-150 per default measurement of a settled body.
    private static string? SamplingJitNote(JitCounts jit, WarmupEnd warmupEnd)
    {
        if (!PerfRunInfo.MayHaveChanged(jit, warmupEnd))
            return null;

        return jit.Thread > 0
            ? string.Create(CultureInfo.InvariantCulture,
                $"{jit.Thread:N0} method(s) were JIT-compiled on the measuring thread during sampling (the body ran code for the first time, or a loop was replaced by on-stack replacement): the code changed between samples, and some samples include the compilation.")
            : string.Create(CultureInfo.InvariantCulture,
                $"{jit.Process:N0} method(s) were JIT-compiled in the process during sampling, and warmup had not seen the body's final code: its tier-1 code may have replaced slower code between samples.");
    }

    /// <summary>
    /// The sample loop: one read of every counter at each boundary, straight into <paramref name="readings"/> (row s is
    /// the boundary before sample s), and nothing else between boundaries but the body and a clock read for the deadline.
    /// Allocates nothing.
    /// </summary>
    /// <returns>The samples taken (fewer than <paramref name="samples"/> only past the deadline).</returns>
    /// <remarks>
    /// Fully optimized at its first call, like the operation loops: at tier 0 it ran the calibration unoptimized and was
    /// replaced by on-stack replacement in the middle of a 20,000-sample run, so the boundary cost changed under the
    /// samples.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Sample<TLoop>(TLoop loop, CounterSet set, long operations, ulong[] readings, long[] times, int samples, int minSamples, long deadline, int width)
        where TLoop : struct, IOperationLoop
    {
        set.ReadCumulative(readings.AsSpan(0, width));
        long previous = Stopwatch.GetTimestamp();
        for (int s = 0; s < samples; s++)
        {
            loop.Run(operations);
            set.ReadCumulative(readings.AsSpan((s + 1) * width, width));
            long now = Stopwatch.GetTimestamp();
            times[s] = now - previous;
            previous = now;
            if (now > deadline && s + 1 >= minSamples)
                return s + 1;
        }

        return samples;
    }

    private static CounterResult BuildResult(
        CounterDescriptor descriptor, int slot, int width, long operations, ulong[] readings, int taken, ulong[] calibration, PerfOptions options, double multiplexing)
    {
        HdrHistogramBuilder histograms = HdrHistogram.Factory.WithRelativeError(options.RelativeError);

        int calibrationCount = options.CalibrationSamples;
        var overheadSamples = new ulong[calibrationCount];
        HdrHistogram overheadHistogram = histograms.Create();
        double sum = 0;
        for (int s = 0; s < calibrationCount; s++)
        {
            overheadSamples[s] = Delta(calibration, s, slot, width);
            overheadHistogram.Record(overheadSamples[s]);
            sum += overheadSamples[s];
        }

        Array.Sort(overheadSamples);
        double mean = sum / calibrationCount;
        double variance = 0;
        foreach (ulong value in overheadSamples)
            variance += (value - mean) * (value - mean);

        // The lower median: a whole count, so subtracting it keeps deterministic counters exact.
        ulong median = overheadSamples[(calibrationCount - 1) / 2];
        var overhead = new CounterOverhead(overheadHistogram, median, overheadSamples[0], overheadSamples[^1], mean, Math.Sqrt(variance / calibrationCount), calibrationCount);

        var values = new ulong[taken];
        HdrHistogram histogram = histograms.Create();
        for (int s = 0; s < taken; s++)
        {
            ulong delta = Delta(readings, s, slot, width);
            values[s] = delta > median ? delta - median : 0;
            histogram.Record(values[s]);
        }

        return new CounterResult(descriptor, operations, values, histogram, overhead, multiplexing);
    }

    // A multiplexed perf count is scaled by enabled/running, which can step back by a little between reads: a decrease
    // is 0, never a wrapped-around 2^64.
    private static ulong Delta(ulong[] readings, int sample, int slot, int width)
    {
        ulong before = readings[(sample * width) + slot], after = readings[((sample + 1) * width) + slot];
        return after >= before ? after - before : 0;
    }

    private static double MultiplexingRatio(CounterPlan plan, string name)
    {
        if (plan.Session is not { } session)
            return double.NaN;
        foreach (PerfEvents.PerfEventCounter counter in session.Counters)
        {
            // Descriptor names are the perf spellings the plan uses (task-clock); counter.Name is the display name.
            if (string.Equals(counter.Descriptor.Name, name, StringComparison.OrdinalIgnoreCase))
                return counter.MultiplexingRatio;
        }

        return double.NaN;
    }

    private static void SettleGC()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    // The note says why no region was used when it was asked for; null when it was started.
    private static bool TryStartNoGCRegion(PerfOptions options, double expectedBytes, out string? note)
    {
        note = null;
        if (!options.UseNoGCRegion)
            return false;
        if (expectedBytes > options.NoGCRegionMaxBytes)
        {
            note = string.Create(CultureInfo.InvariantCulture, $"No no-GC region: the samples should allocate about {expectedBytes:N0} bytes, more than {nameof(PerfOptions.NoGCRegionMaxBytes)} ({options.NoGCRegionMaxBytes:N0}).");
            return false;
        }

        // Twice the estimate plus room for other threads' allocations, which count against the same region.
        long size = Math.Max((long)(expectedBytes * 2) + (1L << 20), 4L << 20);
        try
        {
            if (GC.TryStartNoGCRegion(size))
                return true;
            note = "No no-GC region: the runtime could not reserve it.";
        }
        catch (Exception e) when (e is ArgumentOutOfRangeException or InvalidOperationException)
        {
            note = "No no-GC region: " + e.Message;
        }

        return false;
    }

    private static string? EndNoGCRegion(bool started)
    {
        if (!started)
            return null;
        if (GCSettings.LatencyMode != GCLatencyMode.NoGCRegion)
            return "The GC left the no-GC region during sampling (the process allocated more than reserved): a collection may have landed in a sample.";
        GC.EndNoGCRegion();
        return null;
    }

    private static double MedianSampleNanoseconds(long[] times, int taken)
    {
        if (taken == 0)
            return double.NaN;
        long[] sorted = times[..taken];
        Array.Sort(sorted);
        return ToNanoseconds(sorted[(taken - 1) / 2]);
    }

    private static long ToStopwatchTicks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    private static double ToNanoseconds(long stopwatchTicks) => stopwatchTicks * 1e9 / Stopwatch.Frequency;
}
