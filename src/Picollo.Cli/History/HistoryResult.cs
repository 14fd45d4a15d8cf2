using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Reporting.Serialization;

namespace Picollo.Cli.History;

/// <summary>
/// One test's counter in one run of the history: what it is, its per-operation statistics as the result file holds them
/// (exact, not read back from histogram buckets), and its histogram of per-sample totals while retention keeps it.
/// </summary>
/// <param name="Test">The test's name.</param>
/// <param name="Counter">The counter's name.</param>
/// <param name="Unit">The counter's unit.</param>
/// <param name="Kind">The counter's source family.</param>
/// <param name="Exact">
/// Whether its values are exact: a deterministic counter (allocated bytes, GC and JIT counts) or a simulated one
/// (instructions under callgrind), judged as <c>picollo ab</c> judges them, so a change is the first differing value.
/// </param>
/// <param name="OperationsPerSample">Operations per sample.</param>
/// <param name="Samples">Samples taken.</param>
/// <param name="P0">The smallest sample, per operation.</param>
/// <param name="P10">Percentile 10, per operation: the floor time verdicts judge (docs/VERDICTS.md).</param>
/// <param name="P25">Percentile 25, per operation.</param>
/// <param name="P50">The median, per operation.</param>
/// <param name="P90">Percentile 90, per operation.</param>
/// <param name="P99">Percentile 99, per operation.</param>
/// <param name="P100">The largest sample, per operation.</param>
/// <param name="Mean">The mean, per operation.</param>
/// <param name="StdDev">The samples' standard deviation, per operation.</param>
/// <param name="Histogram">
/// The result file's histogram element as written (compressed counts), or <see langword="null"/> once pruned.
/// </param>
internal sealed record HistoryResult(
    string Test,
    string Counter,
    string Unit,
    CounterKind Kind,
    bool Exact,
    long OperationsPerSample,
    int Samples,
    double P0,
    double P10,
    double P25,
    double P50,
    double P90,
    double P99,
    double P100,
    double Mean,
    double StdDev,
    string? Histogram)
{
    /// <summary>
    /// The value a series judges: P10 per operation for a time-like counter (the floor time verdicts judge, docs/VERDICTS.md),
    /// the mean for the others (exact ones: the per-operation mean, exact; occasional events: events per operation).
    /// </summary>
    public static double SeriesValue(string counter, CounterKind kind, double p10, double mean) =>
        KnownCounters.Of(counter, kind).IsTimeLike ? p10 : mean;

    /// <summary>Whether a counter's values are exact, as <c>picollo ab</c> decides it: deterministic or simulated.</summary>
    public static bool IsExact(string counter, CounterKind kind) =>
        kind == CounterKind.Simulated || KnownCounters.Of(counter, kind).IsDeterministic;

    /// <summary>
    /// The results of one test's result file: every available counter with a histogram, its statistics from
    /// <paramref name="record"/> (<see cref="ResultFolder"/>'s reading, which fills P10 and P25 of files written before they
    /// were stored) and its standard deviation from the file, else from the histogram.
    /// </summary>
    public static IEnumerable<HistoryResult> From(PerfReportModel report, BaselineRecord record)
    {
        ArgumentNullException.ThrowIfNull(report);
        ArgumentNullException.ThrowIfNull(record);
        foreach (BaselineCounter counter in record.Counters)
        {
            CounterReportModel written = report.Counters.First(c => c.Name == counter.Name);
            PerOperationSummary s = counter.PerOperation;
            double stdDev = written.PerOperation?.StdDev
                ?? counter.Histogram.GetSummary().StdDev / Math.Max(1, counter.OperationsPerSample);
            yield return new HistoryResult(
                report.Test, counter.Name, counter.Unit, counter.Kind, IsExact(counter.Name, counter.Kind), written.OperationsPerSample,
                written.Samples, s.P0, s.P10, s.P25, s.P50, s.P90, s.P99, s.P100, s.Mean, stdDev, written.Histogram?.GetRawText());
        }
    }
}
