using Picollo.Measurement.Conditions;
using Picollo.Measurement.Simulated;

namespace Picollo.Measurement;

/// <summary>How one measurement ran: what the pilot chose, what the run cost, and what it could not do.</summary>
/// <remarks>
/// Built by the engine only (the constructor is internal); properties rather than constructor parameters, so a new
/// fact about a run is a new property that breaks no caller.
/// </remarks>
public sealed record PerfRunInfo
{
    internal PerfRunInfo()
    {
    }

    /// <summary>Operations per sample, as set or as chosen by the pilot.</summary>
    public long OperationsPerSample { get; init; }

    /// <summary>The samples taken.</summary>
    public int SampleCount { get; init; }

    /// <summary>Body invocations during warmup.</summary>
    public long WarmupOperations { get; init; }

    /// <summary>The wall time of the warmup.</summary>
    public TimeSpan WarmupTime { get; init; }

    /// <summary>What ended the warmup: evidence that the body's code was final, a quiet JIT, or the time cap.</summary>
    public WarmupEnd WarmupEnd { get; init; }

    /// <summary>The wall time of the whole measurement, warmup included.</summary>
    public TimeSpan WallTime { get; init; }

    /// <summary>The cost of one sample boundary (one read of every counter), measured by the pilot.</summary>
    public double BoundaryNanoseconds { get; init; }

    /// <summary>The pilot's estimate of one operation's wall time.</summary>
    public double OperationNanoseconds { get; init; }

    /// <summary>The median wall time of a sample, boundary included.</summary>
    public double SampleNanoseconds { get; init; }

    /// <summary>
    /// <see langword="true"/> when the time budget capped the operations per sample below what a boundary cost under 1% needs,
    /// or stopped sampling early.
    /// </summary>
    public bool IsBoundByTimeBudget { get; init; }

    /// <summary>The CPU the thread was pinned to, or <see langword="null"/>.</summary>
    public int? PinnedCpu { get; init; }

    /// <summary>Why the thread was not pinned when pinning was asked for; otherwise <see langword="null"/>.</summary>
    public string? PinningFailureReason { get; init; }

    /// <summary>Whether the samples ran inside a no-GC region.</summary>
    public bool UsedNoGCRegion { get; init; }

    /// <summary>
    /// Why no no-GC region was used, or that the GC left it early; <see langword="null"/> when used as planned or not asked
    /// for. Among the <see cref="Notes"/> only when it is a caveat: not when the samples would allocate more than
    /// <see cref="PerfOptions.NoGCRegionMaxBytes"/> (the body's collections are then part of its cost, counted by gen0-collections).
    /// </summary>
    public string? NoGCRegionNote { get; init; }

    /// <summary>
    /// Methods JIT-compiled in the whole process while the samples ran: background tier-1 compilations of any code, and
    /// compilations on the measuring thread.
    /// </summary>
    public long SamplingJitCompilations { get; init; }

    /// <summary>
    /// Methods JIT-compiled on the measuring thread while the samples ran: the body calling something for the first time
    /// (a new method, generic instantiation or <see cref="System.Reflection.Emit.DynamicMethod"/>), or on-stack replacement of
    /// a running loop. Each one is a change of the measured code, and its compilation time lands in a sample.
    /// </summary>
    public long SamplingThreadJitCompilations { get; init; }

    /// <summary>When the measurement started.</summary>
    public DateTime TimestampUtc { get; init; }

    /// <summary>
    /// Why the measured code was not optimized, naming the body, the cause and the remedy; <see langword="null"/> when it
    /// was. Set when the body's assembly was built without optimizations (a Debug build, or
    /// <c>&lt;Optimize&gt;false&lt;/Optimize&gt;</c>), or when the JIT compiled the body's method with MinOpts
    /// (<see cref="WarmupEnd.CodeUnoptimized"/>). Also one of the <see cref="Notes"/>.
    /// </summary>
    public string? UnoptimizedReason { get; init; }

    /// <summary>
    /// Whether the measured body ran optimized code, as a Release build does. <see langword="false"/> when
    /// <see cref="UnoptimizedReason"/> says why not: such numbers (often several times slower) are no measure of the real
    /// code and must never be recorded or compared as if they were.
    /// </summary>
    public bool IsOptimized => UnoptimizedReason is null;

    /// <summary>
    /// Why the measured code is instrumented for code coverage, naming the body, the collector and the remedy;
    /// <see langword="null"/> when it is not. Set when coverlet rewrote an assembly loaded in the process, or when a CLR
    /// profiler (a coverage collector's) is loaded into it. Instrumented code counts every line or method it runs, so its
    /// numbers are no measure of the shipped code: like unoptimized code's, they are never recorded or compared. Also one
    /// of the <see cref="Notes"/>.
    /// </summary>
    public string? InstrumentedReason { get; init; }

    /// <summary>
    /// Why the measured code is not what ships (<see cref="UnoptimizedReason"/>, else <see cref="InstrumentedReason"/>), or
    /// <see langword="null"/>: such numbers are never recorded, compared or simulated.
    /// </summary>
    internal string? NotShippedReason => UnoptimizedReason ?? InstrumentedReason;

    /// <summary>
    /// Every caveat of the run in sentences (warmup, JIT activity during sampling, pinning, no-GC region, time budget,
    /// background GC).
    /// </summary>
    public IReadOnlyList<string> Notes { get; init; } = [];

    /// <summary>
    /// How fast the machine ran: nanoseconds per 1,000 dependent multiply-adds of a fixed reference loop, timed between the
    /// samples (the floor, P10, of its timings, as time verdicts judge the body). Baselines store it, and a time verdict
    /// against a baseline recorded at a different machine speed allows for it (docs/VERDICTS.md, "Machines and their speed").
    /// </summary>
    public double MachineSpeedNanoseconds { get; init; } = double.NaN;

    /// <summary>
    /// How fast the machine ran branchy code: nanoseconds per 1,000 characters of a fixed word count, timed between the
    /// samples beside the core loop (the floor of its timings). A shared host can slow code that leans on the branch
    /// predictor by 1.6-1.8× for minutes while the core loop does not move; baselines store it, and a time verdict against
    /// a baseline recorded while it ran faster allows for the difference (docs/VERDICTS.md, "Levels").
    /// </summary>
    public double BranchSpeedNanoseconds { get; init; } = double.NaN;

    /// <summary>
    /// How fast this process allocated while the samples ran: nanoseconds per small allocation of a fixed reference, timed
    /// between the samples of a body that allocates (the median of the timings taken beside the fastest fifth of the
    /// samples, where the floor that time verdicts judge comes from); <see cref="double.NaN"/> for a body that does not.
    /// Baselines store it, and a time verdict of an allocating body is scaled by its ratio to the recording's
    /// (docs/VERDICTS.md, "Allocation speed").
    /// </summary>
    public double AllocationSpeedNanoseconds { get; init; } = double.NaN;

    /// <summary>
    /// How many cores' worth of CPU time other processes used while the samples ran (Linux <c>/proc/stat</c>, less this
    /// process's own); <see cref="double.NaN"/> where it cannot be read. A time verdict of a measurement taken while other
    /// processes kept three quarters of the other cores busy allows for them (docs/VERDICTS.md, "Other processes").
    /// </summary>
    public double OtherProcessesCores { get; init; } = double.NaN;

    /// <summary>
    /// Whether the measured code may have changed between samples: certainly when the measuring thread compiled code during
    /// sampling (<see cref="SamplingThreadJitCompilations"/>); possibly when methods were compiled elsewhere in the process
    /// during sampling after a warmup that could not confirm the body's final code (<see cref="WarmupEnd"/> other than
    /// <see cref="Measurement.WarmupEnd.CodeOptimized"/> or <see cref="Measurement.WarmupEnd.CodeUnoptimized"/>), as the
    /// body's tier-1 code may have been among them.
    /// <see cref="Notes"/> says which. Measure again before trusting such a run against a baseline.
    /// </summary>
    public bool CodeMayHaveChanged => MayHaveChanged(new JitCounts(SamplingJitCompilations, SamplingThreadJitCompilations), WarmupEnd);

    /// <summary>
    /// The simulated part of the measurement (docs/COUNTERS.md, "Simulated counters"): what the simulation worker counted
    /// and on which simulated machine; <see langword="null"/> when no simulated counter was asked for.
    /// </summary>
    internal SimulatedMeasurement? Simulation { get; init; }

    /// <summary>
    /// Whether the run measured the body's final code: its warmup ended on evidence (not at a time cap) and no code changed
    /// under the samples. Baseline verdicts and relative claims measure again when it did not (docs/VERDICTS.md, "Code that
    /// is not final").
    /// </summary>
    internal bool RanFinalCode => WarmupEnd != WarmupEnd.TimeCap && !CodeMayHaveChanged;

    /// <summary>The rule behind <see cref="CodeMayHaveChanged"/>, for the engine's note before the record exists.</summary>
    internal static bool MayHaveChanged(JitCounts sampling, WarmupEnd warmupEnd) =>
        sampling.Thread > 0 || (sampling.Process > 0 && warmupEnd is not (WarmupEnd.CodeOptimized or WarmupEnd.CodeUnoptimized));

    /// <summary>The boundary's share of a sample's wall time (the pilot aims below 0.01).</summary>
    public double BoundaryFraction => SampleNanoseconds > 0 ? BoundaryNanoseconds / SampleNanoseconds : double.NaN;
}
