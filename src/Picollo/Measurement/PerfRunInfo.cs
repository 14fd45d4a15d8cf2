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
/// <param name="TimestampUtc">When the measurement started.</param>
/// <param name="Notes">Every caveat of the run in sentences (warmup, pinning, no-GC region, time budget, background GC).</param>
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
    DateTime TimestampUtc,
    IReadOnlyList<string> Notes)
{
    /// <summary>The boundary's share of a sample's wall time (the pilot aims below 0.01).</summary>
    public double BoundaryFraction => SampleNanoseconds > 0 ? BoundaryNanoseconds / SampleNanoseconds : double.NaN;
}
