namespace Picollo.Metrics;

/// <summary>
/// Distribution-free confidence intervals of a quantile from order statistics. For n independent values and the true
/// p-quantile q, P(X₍ₖ₎ ≤ q) = P(B ≥ k) with B ~ Binomial(n, p), so [X₍ₗ₎, X₍ᵤ₎] covers q with probability
/// F_B(u − 1) − F_B(l − 1), whatever the distribution (conservative with ties). The baseline verdicts bound a run's
/// floor with it, the paired comparisons the median of their batch medians (docs/VERDICTS.md).
/// </summary>
internal static class OrderStatistics
{
    /// <summary>
    /// The 1-based ranks (l, u) of the order statistics that bound the p-quantile of n values with at most
    /// <paramref name="tail"/> left out on each side: l is the largest rank with F_B(l − 1) ≤ tail, u the smallest with
    /// 1 − F_B(u − 1) ≤ tail.
    /// </summary>
    /// <param name="n">The number of values.</param>
    /// <param name="p">The quantile, in (0, 1).</param>
    /// <param name="tail">The probability left out on each side, in (0, 0.5).</param>
    /// <returns>The ranks; <see langword="null"/> when n is too small for both bounds to exist.</returns>
    public static (long Lower, long Upper)? Ranks(long n, double p, double tail)
    {
        if (n < 1 || !(p > 0 && p < 1) || !(tail > 0 && tail < 0.5))
            return null;

        // The binomial pmf by recurrence in log space: pmf(k + 1) = pmf(k) · (n − k) / (k + 1) · p / (1 − p). No log-gamma,
        // no overflow, O(n).
        double logOdds = Math.Log(p / (1 - p));
        double logPmf = n * Math.Log(1 - p);
        double cdf = 0;
        long lower = 0, upper = 0;
        for (long k = 0; k < n; k++)
        {
            // After adding pmf(k), cdf = F_B(k): the condition of rank k + 1 on both sides.
            cdf += Math.Exp(logPmf);
            long rank = k + 1;
            if (cdf <= tail)
                lower = rank;
            if (upper == 0 && 1 - cdf <= tail)
                upper = rank;
            logPmf += Math.Log(n - k) - Math.Log(k + 1) + logOdds;
        }

        if (lower < 1 || upper < 1 || upper > n || lower > upper)
            return null;
        return (lower, upper);
    }

    /// <summary>The probability that [X₍ₗ₎, X₍ᵤ₎] of n values covers their p-quantile: F_B(u − 1) − F_B(l − 1).</summary>
    /// <param name="n">The number of values.</param>
    /// <param name="p">The quantile, in (0, 1).</param>
    /// <param name="lower">The lower rank, 1-based.</param>
    /// <param name="upper">The upper rank, 1-based, at least <paramref name="lower"/>.</param>
    /// <returns>The coverage.</returns>
    public static double Coverage(long n, double p, long lower, long upper)
    {
        double logOdds = Math.Log(p / (1 - p));
        double logPmf = n * Math.Log(1 - p);
        double cdf = 0, below = 0, upTo = 0;
        for (long k = 0; k < n; k++)
        {
            cdf += Math.Exp(logPmf);
            if (k == lower - 1)
                below = cdf;
            if (k == upper - 1)
                upTo = cdf;
            logPmf += Math.Log(n - k) - Math.Log(k + 1) + logOdds;
        }

        return Math.Clamp(upTo - below, 0, 1);
    }
}
