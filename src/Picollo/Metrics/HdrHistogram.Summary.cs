namespace Picollo.Metrics;

public sealed partial class HdrHistogram
{
    /// <summary>
    /// Takes the standard percentiles, the moments and the counts from one consistent copy of the counters.
    /// </summary>
    /// <param name="reuseInstance">A summary to refill in place (no allocation once it has grown to this histogram's size).</param>
    /// <returns><paramref name="reuseInstance"/> refilled, or a new summary.</returns>
    public HdrHistogramSummary GetSummary(HdrHistogramSummary? reuseInstance = null)
    {
        var summary = reuseInstance ?? new HdrHistogramSummary();
        summary.Fill(this);
        return summary;
    }
}
