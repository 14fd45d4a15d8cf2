using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Rules;
using Picollo.Counters;

namespace Picollo.Reporting.Serialization;

// The JSON shape of a per-test result file: for tools and people reading CI artifacts, not read back by Picollo, so
// positional records in declaration order suffice.

/// <summary>One test's result file.</summary>
/// <param name="Test">The test's name.</param>
/// <param name="Verdict">pass, notice, fail, updated or measured.</param>
/// <param name="TimestampUtc">When the measurement started.</param>
/// <param name="OperationsPerSample">Operations per sample.</param>
/// <param name="Samples">Samples taken.</param>
/// <param name="WallTimeMs">Wall time of the whole measurement.</param>
/// <param name="WarmupMs">Wall time of the warmup.</param>
/// <param name="WarmupEnd">What ended the warmup (CodeOptimized, JitQuiet, TimeCap).</param>
/// <param name="Notes">The run's caveats in sentences.</param>
/// <param name="BaselinePath">The baseline file, when a check ran.</param>
/// <param name="ReceivedPath">The received file, when one was written.</param>
/// <param name="Remeasurement">When the result is a second measurement taken to confirm a regression, what both showed.</param>
/// <param name="Counters">One per counter, in request order.</param>
internal sealed record PerfReportModel(
    string Test,
    string Verdict,
    DateTime TimestampUtc,
    long OperationsPerSample,
    int Samples,
    double WallTimeMs,
    double WarmupMs,
    string WarmupEnd,
    IReadOnlyList<string> Notes,
    string? BaselinePath,
    string? ReceivedPath,
    string? Remeasurement,
    IReadOnlyList<CounterReportModel> Counters);

/// <summary>One counter: what it is, its per-operation statistics, its histogram of per-sample totals and its verdict.</summary>
internal sealed record CounterReportModel(
    string Name,
    string Unit,
    CounterKind Kind,
    bool Available,
    string? UnavailableReason,
    long OperationsPerSample,
    int Samples,
    PerOperationModel? PerOperation,
    ulong? OverheadMedianPerSample,
    JsonElement? Histogram,
    VerdictModel? Verdict);

/// <summary>Exact per-operation statistics of the samples (see <see cref="Measurement.CounterResult"/>).</summary>
/// <remarks>
/// <c>picollo compare</c> judges two runs from these numbers, not from the histogram's buckets, which showed 12,464
/// allocated bytes per operation as 12,462.08. <paramref name="P10"/> (the floor time verdicts judge) and
/// <paramref name="P25"/> are <see langword="null"/> only in files written before they were stored.
/// </remarks>
/// <param name="P0">The smallest sample, per operation.</param>
/// <param name="P10">Percentile 10 of the samples, per operation.</param>
/// <param name="P25">Percentile 25, per operation.</param>
/// <param name="P50">The median, per operation.</param>
/// <param name="P90">Percentile 90, per operation.</param>
/// <param name="P99">Percentile 99, per operation.</param>
/// <param name="P100">The largest sample, per operation.</param>
/// <param name="Mean">The mean, per operation.</param>
/// <param name="StdDev">The standard deviation of the samples, per operation.</param>
internal sealed record PerOperationModel(
    double P0, double? P10, double? P25, double P50, double P90, double P99, double P100, double Mean, double StdDev);

/// <summary>A counter's verdict against its baseline.</summary>
internal sealed record VerdictModel(
    CounterVerdictStatus Status,
    VerdictMode Mode,
    BaselineStatistic Statistic,
    double? Baseline,
    double? Current,
    double? RelativeChange,
    double? EffectSize,
    string? EffectSizeName,
    string? BaselineMachineId,
    string Text)
{
    /// <summary>Cohen's d of a time counter's floor regions, beside <see cref="EffectSize"/> (z); absent for other counters.</summary>
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public double? CohensD { get; init; }
}

/// <summary>A paired comparison's result file: both sides in full and the paired statistics per counter.</summary>
/// <param name="Test">The test's name.</param>
/// <param name="ReferenceName">What the report calls the reference.</param>
/// <param name="CandidateName">What the report calls the candidate.</param>
/// <param name="TimestampUtc">When the comparison started.</param>
/// <param name="Pairs">The pairs over all measurements.</param>
/// <param name="Measurements">The measurements pooled.</param>
/// <param name="WallTimeMs">The wall time of all measurements.</param>
/// <param name="Paired">One per counter, in request order.</param>
/// <param name="Reference">The reference's result of the latest measurement.</param>
/// <param name="Candidate">The candidate's result of the latest measurement.</param>
internal sealed record PerfComparisonModel(
    string Test,
    string ReferenceName,
    string CandidateName,
    DateTime TimestampUtc,
    int Pairs,
    int Measurements,
    double WallTimeMs,
    IReadOnlyList<PairedCounterModel> Paired,
    PerfReportModel Reference,
    PerfReportModel Candidate);

/// <summary>One counter of a comparison (see <see cref="Measurement.PairedCounter"/>).</summary>
internal sealed record PairedCounterModel(
    string Name,
    string Unit,
    bool Available,
    bool Exact,
    bool TimeLike,
    double Ratio,
    double Low,
    double High,
    double Confidence,
    double CohensDz,
    double FloorRatio,
    double ReferenceMean,
    double CandidateMean,
    string Change);
