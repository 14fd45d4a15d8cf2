using System.Diagnostics;
using System.Reflection;
using Picollo.Counters;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using static Picollo.Measurement.Engine.EngineClock;

namespace Picollo.Measurement.Paired;

/// <summary>
/// The engine behind <see cref="Perf.Compare(PerfOptions, Action, Action)"/>: both bodies through the same stages as a
/// measurement (<see cref="Warmup"/> each to its final code, <see cref="Pilot"/> each, <see cref="OverheadCalibration"/>
/// each), then <see cref="PairedSampling"/>, on one pinned thread under the engine's gate, with one operations-per-sample
/// count for both sides, so a pair's two samples did the same number of operations at the same moment.
/// </summary>
internal static class PairedEngine
{
    /// <summary>Measures <paramref name="reference"/> and <paramref name="candidate"/> in pairs.</summary>
    /// <param name="options">How to measure.</param>
    /// <param name="reference">The reference's loop.</param>
    /// <param name="emptyReference">Its empty loop.</param>
    /// <param name="candidate">The candidate's loop.</param>
    /// <param name="emptyCandidate">Its empty loop.</param>
    /// <param name="firstReferenceCall">
    /// The reference's first call, made at the start of its warmup under the warmup's JIT listener (which then sees its first
    /// compilation), that names the side when it throws.
    /// </param>
    /// <param name="firstCandidateCall">The candidate's, likewise.</param>
    /// <returns>Each side's result; sample k of each comes from pair k (<see cref="PairedSampling.ReferenceFirst"/>).</returns>
    internal static (PerfResult Reference, PerfResult Candidate) Run<TReference, TCandidate>(
        PerfOptions options, TReference reference, TReference emptyReference, TCandidate candidate, TCandidate emptyCandidate,
        Action? firstReferenceCall = null, Action? firstCandidateCall = null)
        where TReference : struct, IOperationLoop
        where TCandidate : struct, IOperationLoop
    {
        ArgumentNullException.ThrowIfNull(options);
        return PerfEngine.Exclusively(
            waited => RunExclusive(
                options, reference, emptyReference, candidate, emptyCandidate, (firstReferenceCall, firstCandidateCall), waited));
    }

    // Longer than 60 lines: the script of the paired stages (docs/ARCHITECTURE.md, "Measurement engine": both warmups and
    // pilots, one operations count, one calibration, the pairs), each its own type and its notes in their own methods; what
    // remains is their order and the flat record of the run that both sides' results share.
    private static (PerfResult Reference, PerfResult Candidate) RunExclusive<TReference, TCandidate>(
        PerfOptions options,
        TReference reference,
        TReference emptyReference,
        TCandidate candidate,
        TCandidate emptyCandidate,
        (Action? Reference, Action? Candidate) firstCalls,
        string? lockNote)
        where TReference : struct, IOperationLoop
        where TCandidate : struct, IOperationLoop
    {
        // In a picollo ab worker: both sides are this build's, paired here; the other build's process waits meanwhile.
        PairedPeer.Current?.BeginAlone();
        DateTime timestamp = DateTime.UtcNow;
        long start = Stopwatch.GetTimestamp();
        long budgetTicks = ToStopwatchTicks(options.TimeBudget);
        using ThreadPinning pinning = options.PinThread ? ThreadPinning.PinToCurrentCpu() : ThreadPinning.None();
        List<string> notes = PerfEngine.FirstNotes(lockNote, pinning);

        using CounterPlan plan = CounterPlan.Open(options.EffectiveCounters);
        CounterSet set = plan.Set;
        var scratch = new ulong[Math.Max(set.Count, 1)];
        CancellationToken cancellation = MeasurementCancellation.Current;

        // Each side warms to its own final code; the candidate's warmup comes second, so the reference's tier-1 code
        // (compiled in the background) is in place before either is sampled.
        WarmupOutcome warmupReference = Warmup.Run(
            options, reference, emptyReference, set, scratch, start, budgetTicks, cancellation, firstCalls.Reference);
        WarmupOutcome warmupCandidate = Warmup.Run(
            options, candidate, emptyCandidate, set, scratch, Stopwatch.GetTimestamp(), budgetTicks, cancellation,
            firstCalls.Candidate);
        string? unoptimized = AddWarmupNotes(notes, reference.Method, warmupReference, candidate.Method, warmupCandidate);
        string? instrumented = PerfEngine.AddCoverageNote(notes, candidate.Method, unoptimized);

        // One operations count for both sides: the larger of what each pilot wants (so the boundary is under 1% of either
        // side's sample), within what the budget affords for both.
        long budgetStart = Stopwatch.GetTimestamp();
        cancellation.ThrowIfCancellationRequested();
        PilotOutcome pilotReference = Pilot.Run(options, reference, set, scratch, budgetStart, budgetTicks);
        PilotOutcome pilotCandidate = Pilot.Run(options, candidate, set, scratch, budgetStart, budgetTicks);
        (long operations, bool boundByBudget) = Operations(
            options, pilotReference, pilotCandidate, budgetTicks - (Stopwatch.GetTimestamp() - budgetStart));

        // One calibration for both sides when their empty bodies are the same code (every public form): two calibrations'
        // medians differ by their own noise, and the difference would be subtracted from one side only.
        OverheadCalibration calibrationReference = OverheadCalibration.Run(emptyReference, set, operations, options.CalibrationSamples);
        OverheadCalibration calibrationCandidate = typeof(TReference) == typeof(TCandidate)
            ? calibrationReference
            : OverheadCalibration.Run(emptyCandidate, set, operations, options.CalibrationSamples);
        MachineLoad loadBefore = MachineLoad.Read();
        cancellation.ThrowIfCancellationRequested();
        var sampling = PairedSampling.Run(options, reference, candidate, set, operations,
            pilotReference.BytesPerOperation + pilotCandidate.BytesPerOperation, budgetStart + (2 * budgetTicks), cancellation);
        Warmup.FinishWatching();
        double otherCores = MachineLoad.OtherCores(loadBefore, MachineLoad.Read());
        int taken = sampling.Reference.Taken;
        WarmupEnd laterEnd = warmupReference.End == WarmupEnd.CodeOptimized ? warmupCandidate.End : warmupReference.End;
        boundByBudget |= AddSamplingNotes(notes, options, sampling.NoGCRegionNote, sampling.Jit, laterEnd, taken);

        double speed = MachineSpeed.Probe();
        double branch = BranchSpeed.Probe();
        TimeSpan wall = Stopwatch.GetElapsedTime(start);
        PerfRunInfo Info(WarmupOutcome warmup, PilotOutcome pilot, SampleReadings readings) => new()
        {
            OperationsPerSample = operations,
            SampleCount = taken,
            WarmupOperations = warmup.Operations,
            WarmupTime = warmup.Duration,
            WarmupEnd = warmup.End,
            WallTime = wall,
            BoundaryNanoseconds = pilot.BoundaryNanoseconds,
            OperationNanoseconds = pilot.OperationNanoseconds,
            SampleNanoseconds = readings.MedianSampleNanoseconds(),
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
            BranchSpeedNanoseconds = branch,
            OtherProcessesCores = otherCores,
            Notes = notes.AsReadOnly(),
        };

        PerfRunInfo referenceRun = Info(warmupReference, pilotReference, sampling.Reference);
        PerfRunInfo candidateRun = Info(warmupCandidate, pilotCandidate, sampling.Candidate);
        return (ResultBuilder.Build(options, plan, calibrationReference, sampling.Reference, referenceRun),
            ResultBuilder.Build(options, plan, calibrationCandidate, sampling.Candidate, candidateRun));
    }

    // What the warmups leave for the notes: each side's own, then the engine's build. Code that is not optimized comes first
    // among the notes (either side's voids the comparison). Returns why, naming the side, or null.
    private static string? AddWarmupNotes(
        List<string> notes, MethodInfo reference, WarmupOutcome warmupReference, MethodInfo candidate, WarmupOutcome warmupCandidate)
    {
        AddSideNote(notes, "reference", warmupReference.Note);
        AddSideNote(notes, "candidate", warmupCandidate.Note);
        string? unoptimized = CodeOptimization.UnoptimizedReason(reference, warmupReference.End) is { } r ? "The reference: " + r
            : CodeOptimization.UnoptimizedReason(candidate, warmupCandidate.End) is { } c ? "The candidate: " + c
            : null;
        if (unoptimized is not null)
            notes.Insert(0, unoptimized);
        if (CodeOptimization.EngineNote is { } engineNote)
            notes.Add(engineNote);
        return unoptimized;
    }

    // What the paired sampling says: the no-GC region's caveat, code compiled under the samples (against the later side's
    // warmup end), and a time budget that cut the pairs short. Returns whether it did.
    private static bool AddSamplingNotes(
        List<string> notes, PerfOptions options, string? noGCRegionNote, JitCounts jit, WarmupEnd laterEnd, int taken)
    {
        if (Sampling.IsCaveat(noGCRegionNote))
            notes.Add(noGCRegionNote!);
        if (PerfEngine.SamplingJitNote(jit, laterEnd) is { } jitNote)
            notes.Add(jitNote);
        if (taken >= options.Samples)
            return false;

        notes.Add(MeasurementMessages.PairsStoppedAtBudget(options.TimeBudget, taken, options.Samples));
        return true;
    }

    // The operations per sample both sides run: fixed by the options, or the larger pilot's choice, capped so that the
    // pairs fit the budget's remainder together.
    private static (long Operations, bool BoundByBudget) Operations(
        PerfOptions options, PilotOutcome reference, PilotOutcome candidate, long remainingTicks)
    {
        if (options.OperationsPerSample > 0)
            return (options.OperationsPerSample, false);

        long wanted = Math.Max(reference.OperationsPerSample, candidate.OperationsPerSample);
        double pairNs = Math.Max(reference.OperationNanoseconds + candidate.OperationNanoseconds, 0.02);
        long affordable = (long)Math.Floor(Math.Max(0, ToNanoseconds(remainingTicks)) * 0.8 / options.Samples / pairNs);
        long operations = Math.Max(1, Math.Min(wanted, affordable));
        return (operations, reference.IsBoundByTimeBudget || candidate.IsBoundByTimeBudget || operations < wanted);
    }

    private static void AddSideNote(List<string> notes, string side, string? note)
    {
        if (note is not null)
            notes.Add($"The {side}'s warmup: {note}");
    }
}
