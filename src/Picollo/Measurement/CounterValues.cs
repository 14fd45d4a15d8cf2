namespace Picollo.Measurement;

/// <summary>Which values a counter's table shows (<see cref="CounterResult.ToMarkdown"/>, <see cref="PerfResult.ToMarkdown"/>).</summary>
public enum CounterValues
{
    /// <summary>
    /// Per operation: each sample's total divided by its operations, as exact order statistics of the samples (a counter
    /// that allocated exactly 64 bytes per operation shows 64), with up to 3 decimals.
    /// </summary>
    PerOperation,

    /// <summary>
    /// Per sample: the totals of <see cref="CounterResult.OperationsPerSample"/> operations as <see cref="CounterResult.Histogram"/>
    /// holds them, bucketed with the run's relative error (the <see cref="Metrics.HdrHistogramSummary"/> table).
    /// </summary>
    PerSample,
}
