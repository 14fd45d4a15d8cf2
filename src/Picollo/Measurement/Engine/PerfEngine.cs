using System.Collections.Immutable;
using System.Diagnostics;
using System.Reflection;
using Picollo.Counters;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Simulated;
using static Picollo.Measurement.Engine.EngineClock;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The sampling engine behind <see cref="Perf"/>: the orchestration of its stages, <see cref="Warmup"/> →
/// <see cref="Pilot"/> → <see cref="OverheadCalibration"/> → <see cref="Sampling"/> → <see cref="ResultBuilder"/>, under
/// the process-wide gate, on a pinned thread, with the notes that say how far the numbers can be trusted.
/// </summary>
internal static class PerfEngine
{
    /// <summary>
    /// One measurement at a time per process (see Perf's remarks), paired comparisons included. A Lock rather than a
    /// SemaphoreSlim: it knows its owner, so a nested call can be refused instead of deadlocking.
    /// </summary>
    internal static readonly Lock Gate = new();

    /// <summary>
    /// Measures <paramref name="body"/>: natively, then, when <paramref name="options"/> ask for simulated counters, under
    /// simulation in the test's worker (<see cref="ISimulatedMeasurer"/>). The result can be measured again
    /// (<see cref="PerfResult.Remeasure"/>): natively only, with the same simulated counts, which repeat exactly.
    /// </summary>
    /// <exception cref="PerfSimulationException">The simulated part failed.</exception>
    internal static PerfResult Measure<TLoop>(PerfOptions options, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop
    {
        ArgumentNullException.ThrowIfNull(options);
        ImmutableArray<string> simulated = SimulatedResults.Requested(options);
        ISimulatedMeasurer? measurer = simulated.IsEmpty ? null : SimulatedMeasurers.Current;

        // In the simulation worker nothing runs natively: the test's own process measured that part already.
        if (measurer is { IsWorker: true })
            return SimulatedResults.InWorker(options, measurer.Measure(options, simulated, body, empty));

        PerfResult native = Run(options, body, empty);
        if (measurer is null)
        {
            native.PendingTurn?.Complete(native);
            return native.WithRemeasure(() => Measure(options, body, empty));
        }

        // Unoptimized or instrumented code is never measured as if it were real (docs/ARCHITECTURE.md, "Measurement
        // engine"): no worker.
        SimulatedMeasurement simulation = native.Run.NotShippedReason is { } notShipped
            ? SimulatedMeasurement.Unavailable(simulated, MeasurementMessages.SimulationSkippedUnoptimized(notShipped))
            : measurer.Measure(options, simulated, body, empty);
        Func<SimulatedMeasurement>? again = simulation.Simulator is null
            ? null
            : () => measurer.MeasureAgain(simulation.Region, simulated);
        PerfResult merged = SimulatedResults.Merge(native, simulation);
        native.PendingTurn?.Complete(merged);
        return MeasureAgainNatively(merged, options, body, empty, simulation, again);
    }

    // A measurement with simulated counters measured again (a judgement's confirmation, a recording's runs) measures its
    // native counters only and keeps the simulated ones: they repeat exactly, and each simulation costs a worker's seconds.
    private static PerfResult MeasureAgainNatively<TLoop>(
        PerfResult merged, PerfOptions options, TLoop body, TLoop empty, SimulatedMeasurement simulation, Func<SimulatedMeasurement>? again)
        where TLoop : struct, IOperationLoop =>
        merged
            .WithSimulateAgain(again)
            .WithRemeasure(() => MeasureAgainNatively(
                SimulatedResults.Merge(Run(options, body, empty), simulation), options, body, empty, simulation, again));

    internal static PerfResult Run<TLoop>(PerfOptions options, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop
    {
        ArgumentNullException.ThrowIfNull(options);
        return Exclusively(waited => RunExclusive(options, body, empty, waited));
    }

    /// <summary>
    /// Runs <paramref name="measure"/> alone: under the process's gate and the machine-wide measurement lock, handing it the
    /// note that says how long it waited for the lock (null when it did not wait).
    /// </summary>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    internal static T Exclusively<T>(Func<string?, T> measure)
    {
        if (Gate.IsHeldByCurrentThread)
            throw new InvalidOperationException(MeasurementMessages.NestedMeasurement());

        using (Gate.EnterScope())
        {
            // Machine-wide: another process's measurement (a test project beside this one) must not run beside this one.
            using MeasurementLock? machine = MeasurementLock.Acquire(MeasurementLock.DefaultTimeout, MeasurementCancellation.Current);
            string? waited = machine is { Waited.TotalMilliseconds: > 100 } held
                ? MeasurementMessages.WaitedForMachineLock(held.Waited)
                : null;
            return measure(waited);
        }
    }

    // Longer than 60 lines: the script of the engine's stages (docs/ARCHITECTURE.md, "Measurement engine"), each already
    // its own type (Warmup, Pilot, OverheadCalibration, Sampling, ResultBuilder) and its notes in their own methods; what
    // remains is their order and the flat record of the run, whose fields come from every stage.
    private static PerfResult RunExclusive<TLoop>(PerfOptions options, TLoop body, TLoop empty, string? lockNote)
        where TLoop : struct, IOperationLoop
    {
        // In a picollo ab worker the tool says when this side may go on, and which CPU both sides measure on. The run's
        // clock starts after that wait: a side that waited for the other's warmup would otherwise find its own warmup's time
        // spent, and measure code still at tier 0 (the second side to warm up ran 2-6× slower than the first in every pair).
        PairedTurn? turn = PairedPeer.Current?.Begin();
        DateTime timestamp = DateTime.UtcNow;
        long start = Stopwatch.GetTimestamp();
        long budgetTicks = ToStopwatchTicks(options.TimeBudget);
        using ThreadPinning pinning = !options.PinThread ? ThreadPinning.None()
            : turn?.Cpu is int cpu ? ThreadPinning.PinTo(cpu)
            : ThreadPinning.PinToCurrentCpu();
        List<string> notes = FirstNotes(lockNote, pinning);

        // Opened after pinning and on this thread: the perf group counts the calling thread (pid 0).
        using CounterPlan plan = CounterPlan.Open(options.EffectiveCounters);
        CounterSet set = plan.Set;
        var scratch = new ulong[Math.Max(set.Count, 1)];

        CancellationToken cancellation = MeasurementCancellation.Current;
        WarmupOutcome warmup = Warmup.Run(options, body, empty, set, scratch, start, budgetTicks, cancellation);
        string? unoptimized = AddWarmupNotes(notes, body.Method, warmup);
        string? instrumented = AddCoverageNote(notes, body.Method, unoptimized);

        // Warmup outlasts half the budget only while the body's tier-1 code is still to come (Warmup.TierUpWait): the pilot
        // and the samples keep their share of the budget after that wait.
        long budgetStart = start + ToStopwatchTicks(warmup.BudgetExtension);
        cancellation.ThrowIfCancellationRequested();
        PilotOutcome pilot = Pilot.Run(options, body, set, scratch, budgetStart, budgetTicks);
        long operations = turn is { IsPaired: true }
            ? turn.AgreeOperations(pilot.OperationsPerSample, options.Samples)
            : pilot.OperationsPerSample;

        OverheadCalibration calibration = OverheadCalibration.Run(empty, set, operations, options.CalibrationSamples);
        MachineLoad loadBefore = MachineLoad.Read();
        cancellation.ThrowIfCancellationRequested();
        SamplingOutcome sampling = turn is { IsPaired: true }
            ? PairedProcessSampling.Run(
                options, body, set, operations, pilot.BytesPerOperation, Stopwatch.GetTimestamp() + (4 * budgetTicks), turn)
            : Sampling.Run(options, body, set, operations, pilot.BytesPerOperation, budgetStart + (2 * budgetTicks), cancellation);
        // A warmup that did not see the final code watched on through the samples; what it saw there is for the next
        // measurement (a throw before this line leaves it to the next warmup to end).
        Warmup.FinishWatching();
        double otherCores = MachineLoad.OtherCores(loadBefore, MachineLoad.Read());
        int taken = sampling.Readings.Taken;

        // The machine's speed over the samples (the reference probes between them, or one probe now), then the notes.
        SampleReadings readings = sampling.Readings;
        double speed = readings.ProbesTaken > 0 ? readings.MachineSpeedNanoseconds() : MachineSpeed.Probe();
        AddConditionNotes(notes, readings, otherCores);
        bool boundByBudget = AddSamplingNotes(notes, options, pilot, sampling, warmup.End, operations);

        var run = new PerfRunInfo
        {
            OperationsPerSample = operations,
            SampleCount = taken,
            WarmupOperations = warmup.Operations,
            WarmupTime = warmup.Duration,
            WarmupEnd = warmup.End,
            WallTime = Stopwatch.GetElapsedTime(start),
            BoundaryNanoseconds = pilot.BoundaryNanoseconds,
            OperationNanoseconds = pilot.OperationNanoseconds,
            SampleNanoseconds = sampling.Readings.MedianSampleNanoseconds(),
            IsBoundByTimeBudget = boundByBudget,
            PinnedCpu = pinning.Cpu,
            PinningFailureReason = pinning.FailureReason,
            UsedNoGCRegion = sampling.UsedNoGCRegion,
            NoGCRegionNote = sampling.NoGCRegionNote,
            SamplingJitCompilations = sampling.Jit.Process,
            SamplingThreadJitCompilations = sampling.Jit.Thread,
            TimestampUtc = timestamp,
            UnoptimizedReason = unoptimized,
            InstrumentedReason = instrumented,
            MachineSpeedNanoseconds = speed,
            BranchSpeedNanoseconds = readings.ProbesTaken > 0 ? readings.BranchSpeedNanoseconds() : BranchSpeed.Probe(),
            AllocationSpeedNanoseconds = readings.AllocationNanoseconds(),
            OtherProcessesCores = otherCores,
            Notes = notes.AsReadOnly(),
        };
        PerfResult result = ResultBuilder.Build(options, plan, calibration, sampling.Readings, run);

        // A picollo ab worker's record waits for the simulated counters, which the test's simulation worker counts next.
        if (turn is not null && !SimulatedResults.Requested(options).IsEmpty && SimulatedMeasurers.Current is { IsWorker: false })
            return result.WithPendingTurn(turn);
        turn?.Complete(result);
        return result;
    }

    // What warmup leaves for the notes: its own, then the engine's build. Code that is not optimized comes first among the
    // notes: it voids every number of the run, whatever the others say. Returns why the body's code is not optimized, or null.
    private static string? AddWarmupNotes(List<string> notes, MethodInfo method, WarmupOutcome warmup)
    {
        if (warmup.Note is not null)
            notes.Add(warmup.Note);

        string? unoptimized = CodeOptimization.UnoptimizedReason(method, warmup.End);
        if (unoptimized is not null)
            notes.Insert(0, unoptimized);
        if (CodeOptimization.EngineNote is { } engineNote)
            notes.Add(engineNote);
        return unoptimized;
    }

    /// <summary>
    /// Why the code the body ran is instrumented for code coverage (<see cref="CoverageProbe"/>), put among the first notes
    /// after unoptimized code's, as it voids every number of the run too; <see langword="null"/> when it is not. Asked
    /// after the warmup, which loaded every assembly the body calls.
    /// </summary>
    internal static string? AddCoverageNote(List<string> notes, MethodInfo method, string? unoptimized)
    {
        string? instrumented = CoverageProbe.Current.Reason(null, CodeOptimization.Describe(method));
        if (instrumented is not null)
            notes.Insert(unoptimized is null ? 0 : 1, instrumented);
        return instrumented;
    }

    // The conditions the samples ran in. A host that changed speed during the samples (a slow mode starting or ending)
    // leaves a run of two speeds: the floor of the first half's reference timings against the second half's. The same
    // 15 % as the verdicts' gate: the floor's own jitter is a few percent. Then other processes keeping the machine busy.
    private static void AddConditionNotes(List<string> notes, SampleReadings readings, double otherCores)
    {
        int half = readings.ProbesTaken / 2;
        double speedFirst = readings.MachineSpeedNanoseconds(0, half), speedSecond = readings.MachineSpeedNanoseconds(half);
        if (Math.Abs(Math.Log(speedSecond / speedFirst)) > Math.Log(1.15))
        {
            notes.Add(MeasurementMessages.MachineChangedSpeed(speedFirst, speedSecond));
        }

        if (MachineLoad.IsBusy(otherCores))
        {
            notes.Add(MeasurementMessages.OtherProcessesBusy(otherCores, Environment.ProcessorCount));
        }
    }

    // What the sampling itself says: the no-GC region's caveat, code compiled under the samples, and a time budget that cut
    // the samples short or capped the operations per sample. Returns whether the time budget bound the run.
    private static bool AddSamplingNotes(
        List<string> notes, PerfOptions options, PilotOutcome pilot, SamplingOutcome sampling, WarmupEnd warmupEnd, long operations)
    {
        if (Sampling.IsCaveat(sampling.NoGCRegionNote))
            notes.Add(sampling.NoGCRegionNote!);
        if (SamplingJitNote(sampling.Jit, warmupEnd) is { } jitNote)
            notes.Add(jitNote);
        int taken = sampling.Readings.Taken;
        if (taken < options.Samples)
        {
            notes.Add(MeasurementMessages.SamplingStoppedAtBudget(options.TimeBudget, taken, options.Samples));
            return true;
        }

        if (pilot.IsBoundByTimeBudget)
        {
            notes.Add(MeasurementMessages.BudgetCappedOperations(operations, Pilot.BoundaryShare));
        }

        return pilot.IsBoundByTimeBudget;
    }

    /// <summary>
    /// The notes every run starts with: the wait for the machine-wide lock, a pinning that failed, the allocated-bytes
    /// caveat.
    /// </summary>
    internal static List<string> FirstNotes(string? lockNote, ThreadPinning pinning)
    {
        var notes = new List<string>();
        if (lockNote is not null)
            notes.Add(lockNote);
        if (pinning.FailureReason is { } pinningFailure)
            notes.Add(pinningFailure);
        if (RuntimeCounterSource.AllocatedBytesCaveat is { } caveat)
            notes.Add(caveat);
        return notes;
    }

    // Compilation on the measuring thread during sampling is certain evidence that the samples ran changing code. Compilation
    // elsewhere is not, after a warmup that saw the body's final code (optimized or not): background tier-1
    // compilations of the engine's own and the JIT listener's methods, and of anything else, landed in 0-150 per
    // default measurement of a settled body.
    internal static string? SamplingJitNote(JitCounts jit, WarmupEnd warmupEnd)
    {
        if (!PerfRunInfo.MayHaveChanged(jit, warmupEnd))
            return null;

        return jit.Thread > 0 ? MeasurementMessages.JitOnMeasuringThread(jit.Thread) : MeasurementMessages.JitInProcess(jit.Process);
    }
}
