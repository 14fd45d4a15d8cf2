using Picollo.Metrics;

namespace Picollo.Measurement;

/// <summary>
/// The overhead calibration of one counter: what an empty body measured per sample with the same loop, the same
/// operations per sample and the same boundary reads. Its <see cref="Median"/> is subtracted from every sample.
/// </summary>
/// <param name="Histogram">The calibration's per-sample deltas.</param>
/// <param name="Median">The per-sample overhead subtracted from every sample (the lower median, a whole count).</param>
/// <param name="Min">The smallest calibration sample.</param>
/// <param name="Max">The largest calibration sample.</param>
/// <param name="Mean">The mean calibration sample.</param>
/// <param name="StdDev">The standard deviation of the calibration samples: the spread the subtraction cannot remove.</param>
/// <param name="SampleCount">How many empty-body samples were taken.</param>
public sealed record CounterOverhead(
    HdrHistogram Histogram, ulong Median, ulong Min, ulong Max, double Mean, double StdDev, int SampleCount)
{
    /// <summary>The calibration's summary table (per-sample values).</summary>
    public HdrHistogramSummary Summary => field ??= Histogram.GetSummary();
}
