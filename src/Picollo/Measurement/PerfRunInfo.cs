namespace Picollo.Measurement;

/// <summary>How one measurement ran: what the pilot chose, what the run cost, and what it could not do.</summary>
/// <param name="OperationsPerSample">Operations per sample, as set or as chosen by the pilot.</param>
/// <param name="SampleCount">The samples taken.</param>
/// <param name="WarmupOperations">Body invocations during warmup.</param>
/// <param name="WarmupTime">The wall time of the warmup.</param>
/// <param name="WarmupEnd">What ended the warmup: evidence that the body's code was final, a quiet JIT, or the time cap.</param>
/// <param name="WallTime">The wall time of the whole measurement, warmup included.</param>
/// <param name="BoundaryNanoseconds">The cost of one sample boundary (one read of every counter), measured by the pilot.</param>
/// <param name="OperationNanoseconds">The pilot's estimate of one operation's wall time.</param>
/// <param name="SampleNanoseconds">The median wall time of a sample, boundary included.</param>
/// <param name="IsBoundByTimeBudget">
/// <see langword="true"/> when the time budget capped the operations per sample below what a boundary cost under 1% needs,
/// or stopped sampling early.
/// </param>
/// <param name="PinnedCpu">The CPU the thread was pinned to, or <see langword="null"/>.</param>
/// <param name="PinningFailureReason">Why the thread was not pinned when pinning was asked for; otherwise <see langword="null"/>.</param>
/// <param name="UsedNoGCRegion">Whether the samples ran inside a no-GC region.</param>
/// <param name="NoGCRegionNote">Why no no-GC region was used, or that the GC left it early; <see langword="null"/> when used as planned or not asked for.</param>
/// <param name="SamplingJitCompilations">
/// Methods JIT-compiled in the whole process while the samples ran: background tier-1 compilations of any code, and
/// compilations on the measuring thread.
/// </param>
/// <param name="SamplingThreadJitCompilations">
/// Methods JIT-compiled on the measuring thread while the samples ran: the body calling something for the first time
/// (a new method, generic instantiation or <see cref="System.Reflection.Emit.DynamicMethod"/>), or on-stack replacement of
/// a running loop. Each one is a change of the measured code, and its compilation time lands in a sample.
/// </param>
/// <param name="TimestampUtc">When the measurement started.</param>
/// <param name="Notes">Every caveat of the run in sentences (warmup, JIT activity during sampling, pinning, no-GC region, time budget, background GC).</param>
public sealed record PerfRunInfo(
    long OperationsPerSample,
    int SampleCount,
    long WarmupOperations,
    TimeSpan WarmupTime,
    WarmupEnd WarmupEnd,
    TimeSpan WallTime,
    double BoundaryNanoseconds,
    double OperationNanoseconds,
    double SampleNanoseconds,
    bool IsBoundByTimeBudget,
    int? PinnedCpu,
    string? PinningFailureReason,
    bool UsedNoGCRegion,
    string? NoGCRegionNote,
    long SamplingJitCompilations,
    long SamplingThreadJitCompilations,
    DateTime TimestampUtc,
    IReadOnlyList<string> Notes)
{
    /// <summary>
    /// Whether the measured code may have changed between samples: certainly when the measuring thread compiled code during
    /// sampling (<see cref="SamplingThreadJitCompilations"/>); possibly when methods were compiled elsewhere in the process
    /// during sampling after a warmup that could not confirm the body's final code (<see cref="WarmupEnd"/> other than
    /// <see cref="Measurement.WarmupEnd.CodeOptimized"/>), as the body's tier-1 code may have been among them.
    /// <see cref="Notes"/> says which. Measure again before trusting such a run against a baseline.
    /// </summary>
    public bool CodeMayHaveChanged => MayHaveChanged(new JitCounts(SamplingJitCompilations, SamplingThreadJitCompilations), WarmupEnd);

    /// <summary>The rule behind <see cref="CodeMayHaveChanged"/>, for the engine's note before the record exists.</summary>
    internal static bool MayHaveChanged(JitCounts sampling, WarmupEnd warmupEnd) =>
        sampling.Thread > 0 || (sampling.Process > 0 && warmupEnd != WarmupEnd.CodeOptimized);

    /// <summary>The boundary's share of a sample's wall time (the pilot aims below 0.01).</summary>
    public double BoundaryFraction => SampleNanoseconds > 0 ? BoundaryNanoseconds / SampleNanoseconds : double.NaN;
}
