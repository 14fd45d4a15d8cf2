using Picollo.Measurement;
using Picollo.Metrics;

namespace Picollo.Baselines.Records;

/// <summary>
/// A counter's statistics per operation, as a baseline stores them and a verdict compares them: exact order statistics of
/// the measured samples divided by the operations per sample (88 allocated bytes per operation stay 88, not a bucket's
/// 88.015).
/// </summary>
/// <param name="Samples">The number of samples behind the statistics.</param>
/// <param name="P0">The smallest sample, per operation.</param>
/// <param name="P10">Percentile 10 of the samples (the floor time verdicts compare), per operation.</param>
/// <param name="P25">Percentile 25, per operation.</param>
/// <param name="P50">The median sample, per operation.</param>
/// <param name="P90">Percentile 90, per operation.</param>
/// <param name="P99">Percentile 99, per operation.</param>
/// <param name="P100">The largest sample, per operation.</param>
/// <param name="Mean">The mean, per operation.</param>
/// <param name="Precision">
/// The relative error of these numbers: what a baseline's rounding to <see cref="SignificantDigits"/> digits leaves, or a
/// histogram's bucket precision when they had to be taken from the histogram (a baseline written before they were stored).
/// An exact verdict allows both sides' precision before it calls two values different.
/// </param>
internal sealed record PerOperationSummary(
    long Samples, double P0, double P10, double P25, double P50, double P90, double P99, double P100, double Mean, double Precision)
{
    /// <summary>
    /// The significant digits a baseline stores: enough for any exact count, few enough that re-recording the same
    /// numbers rewrites nothing.
    /// </summary>
    public const int SignificantDigits = 7;

    /// <summary>The relative error of a value rounded to <see cref="SignificantDigits"/> digits (half a unit of the last digit).</summary>
    public const double RoundingPrecision = 5e-7;

    /// <summary>The exact statistics of a measured counter.</summary>
    /// <param name="counter">An available counter of a measurement.</param>
    /// <returns>Its per-operation statistics from its samples.</returns>
    public static PerOperationSummary FromResult(CounterResult counter)
    {
        ArgumentNullException.ThrowIfNull(counter);
        return new PerOperationSummary(
            counter.SampleCount,
            counter.P0,
            counter.GetPercentile(10),
            counter.GetPercentile(25),
            counter.P50,
            counter.P90,
            counter.P99,
            counter.P100,
            counter.Mean,
            0);
    }

    /// <summary>The statistics a histogram of per-sample totals gives (bucket values, so within its relative error).</summary>
    /// <param name="histogram">The per-sample totals.</param>
    /// <param name="operationsPerSample">The operations behind each total.</param>
    /// <returns>Approximate per-operation statistics.</returns>
    public static PerOperationSummary FromHistogram(HdrHistogram histogram, double operationsPerSample)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        HdrHistogramSummary s = histogram.GetSummary();
        double ops = operationsPerSample;
        return new PerOperationSummary(
            (long)s.TotalCount,
            s.P0.Value / ops,
            s.P10.Value / ops,
            s.P25.Value / ops,
            s.P50.Value / ops,
            s.P90.Value / ops,
            s.P99.Value / ops,
            s.P100.Value / ops,
            s.Mean / ops,
            s.RelativeError);
    }

    /// <summary>The statistic a verdict rule names.</summary>
    /// <param name="statistic">The statistic.</param>
    /// <returns>Its value per operation.</returns>
    public double Get(BaselineStatistic statistic) => statistic switch
    {
        BaselineStatistic.P10 => P10,
        BaselineStatistic.P25 => P25,
        BaselineStatistic.P50 => P50,
        BaselineStatistic.P90 => P90,
        BaselineStatistic.P99 => P99,
        BaselineStatistic.P100 => P100,
        BaselineStatistic.Mean => Mean,
        _ => throw new ArgumentOutOfRangeException(nameof(statistic), statistic, "Unknown statistic."),
    };

    /// <summary>
    /// These statistics as a baseline file stores them: each rounded to <see cref="SignificantDigits"/> significant
    /// digits.
    /// </summary>
    /// <returns>The rounded copy, whose <see cref="Precision"/> accounts for the rounding.</returns>
    public PerOperationSummary Rounded() => new(
        Samples,
        Round(P0),
        Round(P10),
        Round(P25),
        Round(P50),
        Round(P90),
        Round(P99),
        Round(P100),
        Round(Mean),
        Math.Max(Precision, RoundingPrecision));

    /// <summary>Rounds to <see cref="SignificantDigits"/> significant digits (0 and non-finite values stay as they are).</summary>
    /// <param name="value">The value.</param>
    /// <returns>The rounded value.</returns>
    public static double Round(double value)
    {
        if (value == 0 || !double.IsFinite(value))
            return value;
        int decimals = SignificantDigits - 1 - (int)Math.Floor(Math.Log10(Math.Abs(value)));
        return decimals >= 0
            ? Math.Round(value, Math.Min(decimals, 15))
            : Math.Round(value / Math.Pow(10, -decimals)) * Math.Pow(10, -decimals);
    }
}
