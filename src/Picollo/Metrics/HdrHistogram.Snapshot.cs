namespace Picollo.Metrics;

public sealed partial class HdrHistogram
{
    /// <summary>
    /// Takes a consistent copy of the totals that can later be updated in place to hold the change since
    /// the previous update (<see cref="HdrHistogramSnapshot.Update"/>), without resetting the histogram.
    /// </summary>
    /// <returns>A snapshot holding the current totals.</returns>
    public HdrHistogramSnapshot GetSnapshot() => new(this);
}
