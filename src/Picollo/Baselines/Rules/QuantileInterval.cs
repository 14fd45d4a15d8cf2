using Picollo.Metrics;

namespace Picollo.Baselines.Rules;

/// <summary>
/// How precisely a run pins down a quantile of its samples: a distribution-free confidence interval from order
/// statistics, read off the run's histogram (docs/VERDICTS.md). For n independent samples and the true p-quantile q,
/// P(X₍ₖ₎ ≤ q) = P(B ≥ k) with B ~ Binomial(n, p), so the interval [X₍ₗ₎, X₍ᵤ₎] covers q with probability
/// F_B(u − 1) − F_B(l − 1), whatever the distribution looks like (conservative with ties).
/// </summary>
internal static class QuantileInterval
{
    /// <summary>The probability left out on each side of the interval: a 99% two-sided interval.</summary>
    public const double Tail = 0.005;

    /// <summary>Φ⁻¹(1 − <see cref="Tail"/>): turns the interval's half-width into a standard error.</summary>
    public const double TailZ = 2.5758293035489;

    /// <summary>
    /// The 1-based ranks (l, u) of the order statistics that bound the p-quantile of n samples: l is the largest rank with
    /// F_B(l − 1) ≤ <see cref="Tail"/>, u the smallest with 1 − F_B(u − 1) ≤ <see cref="Tail"/>.
    /// </summary>
    /// <param name="n">The number of samples.</param>
    /// <param name="p">The quantile, in (0, 1).</param>
    /// <returns>The ranks; <see langword="null"/> when n is too small for both bounds to exist (P10 needs 51 samples,
    /// P25 19, P50 8).</returns>
    public static (long Lower, long Upper)? Ranks(long n, double p) => OrderStatistics.Ranks(n, p, Tail);

    /// <summary>
    /// The relative standard error of the p-quantile of a histogram's samples: the half-width of the 99% interval on a log
    /// scale over <see cref="TailZ"/>, never finer than the histogram's own bucket precision.
    /// </summary>
    /// <param name="histogram">The per-sample totals.</param>
    /// <param name="p">The quantile, in (0, 1).</param>
    /// <returns>The standard error of ln(quantile); <see langword="null"/> when the samples are too few to bound it, or
    /// a bound is 0.</returns>
    public static double? RelativeStandardError(HdrHistogram histogram, double p)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        if (Bounds(histogram, p) is not (double lo, double hi) || lo <= 0 || hi <= 0)
            return null;

        double bucket = histogram.GetSummary().RelativeError / Math.Sqrt(3);
        return Math.Max((Math.Log(hi) - Math.Log(lo)) / (2 * TailZ), bucket);
    }

    /// <summary>The ends of the 99% interval of the p-quantile of a histogram's samples, in its values (per-sample totals).</summary>
    /// <param name="histogram">The per-sample totals.</param>
    /// <param name="p">The quantile, in (0, 1).</param>
    /// <returns>The lower and upper bound; <see langword="null"/> when the samples are too few to bound it.</returns>
    public static (double Lower, double Upper)? Bounds(HdrHistogram histogram, double p)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        long n = (long)histogram.GetSummary().TotalCount;
        if (Ranks(n, p) is not (long l, long u))
            return null;

        // The r-th smallest of n samples is the value at rank 100·(r − ½)/n (HdrHistogram's count-at-rank rounds up).
        // Lower and Upper widen each end by at most a bucket, which keeps the coverage.
        return (histogram.GetPercentileValue(100.0 * (l - 0.5) / n, EquivalentValueSelection.Lower),
            histogram.GetPercentileValue(100.0 * (u - 0.5) / n, EquivalentValueSelection.Upper));
    }

    /// <summary>
    /// The quantile a statistic stands for: 0.10 for P10, 0.25 for P25, 0.5 for P50, …; <see langword="null"/> for the
    /// mean.
    /// </summary>
    /// <param name="statistic">The statistic.</param>
    /// <returns>The quantile in (0, 1], or <see langword="null"/>.</returns>
    public static double? QuantileOf(BaselineStatistic statistic) => statistic switch
    {
        BaselineStatistic.P10 => 0.10,
        BaselineStatistic.P25 => 0.25,
        BaselineStatistic.P50 => 0.50,
        BaselineStatistic.P90 => 0.90,
        BaselineStatistic.P99 => 0.99,
        BaselineStatistic.P100 => 1.0,
        _ => null,
    };
}
