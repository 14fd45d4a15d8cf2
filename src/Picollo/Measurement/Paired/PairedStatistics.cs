using Picollo.Metrics;

namespace Picollo.Measurement.Paired;

/// <summary>
/// The paired statistic of a noisy counter (docs/VERDICTS.md, "Paired comparisons"): from two sides' samples taken in
/// lock-step pairs, contiguous batches of pairs, per batch the ratio of the candidate's floor to the reference's floor
/// over the same stretch of time, and the median of those batch ratios with its order-statistic interval. Cohen's d_z
/// comes from the pairs themselves, averaged over an AB and a BA pair into a unit.
/// </summary>
/// <remarks>
/// <para>
/// Why units: the second body of a pair runs on caches and a branch predictor the first one warmed (or evicted), so an
/// AB pair and a BA pair are biased in opposite directions. The sample order alternates ABBA, so two consecutive pairs
/// always hold one of each, and their mean cancels the order's effect inside the unit instead of only on average.
/// </para>
/// <para>
/// Why floors of batches rather than ratios of pairs: on a VM a 1 ms sample of an unchanged body lands on one of a few
/// discrete levels (790, 890, 950 thousand ticks: host interrupts of ~40 µs that hit some samples and not the next), so
/// the two samples of a pair differ by ±12% as often as not, and the median of per-pair ratios wandered by ±6% between
/// identical runs. Those disturbances only ever add time; the floor of a batch drops them on both sides, and the slow
/// modes that last longer than a batch hit both sides of it alike and cancel in the ratio. A/A intervals went from
/// ±6% to ±0.5% on the same data.
/// </para>
/// <para>
/// Why batches at all: neighbouring pairs share the host's state of the moment, so thousands of pairs are not thousands
/// of independent values. One ratio per stretch of time, and the interval of their median from order statistics, holds
/// whatever their distribution and only asks that batches, not pairs, be exchangeable.
/// </para>
/// </remarks>
internal static class PairedStatistics
{
    /// <summary>The batches one measurement's units are split into (fewer when it has fewer units).</summary>
    public const int Batches = 20;

    /// <summary>
    /// The quantile a batch's floor is taken at on each side: the 10th percentile, as the stored-baseline verdicts'
    /// floor.
    /// </summary>
    public const double FloorQuantile = 0.10;

    // Cohen's d_z is taken over the units with their lowest and highest tenth pulled in to the 10th and 90th percentiles:
    // a few units hit by a burst would otherwise inflate the standard deviation and blind the effect size.
    private const double Winsor = 0.10;

    /// <summary>
    /// The units of one measurement: per two consecutive pairs (one AB, one BA), the mean of their log-ratios
    /// ln(candidate / reference). A pair where either side counted nothing (a sample no longer than the subtracted
    /// overhead) has no ratio, and its unit is left out.
    /// </summary>
    /// <param name="reference">The reference's samples, in pair order.</param>
    /// <param name="candidate">The candidate's samples, in pair order.</param>
    /// <returns>The units, in time order.</returns>
    public static double[] Units(ReadOnlySpan<ulong> reference, ReadOnlySpan<ulong> candidate)
    {
        int pairs = Math.Min(reference.Length, candidate.Length);
        var units = new double[pairs / 2];
        int count = 0;
        for (int k = 0; k + 1 < pairs; k += 2)
        {
            if (reference[k] == 0 || candidate[k] == 0 || reference[k + 1] == 0 || candidate[k + 1] == 0)
                continue;
            double first = Math.Log((double)candidate[k] / reference[k]);
            double second = Math.Log((double)candidate[k + 1] / reference[k + 1]);
            units[count++] = (first + second) / 2;
        }

        return units[..count];
    }

    /// <summary>
    /// The batches of one measurement: its pairs split into <see cref="Batches"/> contiguous stretches of whole AB+BA units
    /// (fewer with fewer units), and per stretch ln(candidate floor / reference floor), each floor the stretch's
    /// <see cref="FloorQuantile"/> on its side. A stretch where a floor is 0 is left out.
    /// </summary>
    /// <param name="reference">The reference's samples, in pair order.</param>
    /// <param name="candidate">The candidate's samples, in pair order.</param>
    /// <returns>The batch log-ratios, in time order.</returns>
    public static double[] BatchRatios(ReadOnlySpan<ulong> reference, ReadOnlySpan<ulong> candidate) =>
        [.. BatchFloors(reference, candidate).Select(static b => b.LogRatio)];

    /// <summary>
    /// The batches as <see cref="BatchRatios"/> cuts them, each with its log-ratio and the mean of its two floors' logs
    /// (how fast the machine ran both sides in that stretch, for a caller that judges on the fastest stretches).
    /// </summary>
    /// <param name="reference">The reference's samples, in pair order.</param>
    /// <param name="candidate">The candidate's samples, in pair order.</param>
    /// <returns>The batches, in time order.</returns>
    public static (double LogRatio, double LogFloor)[] BatchFloors(ReadOnlySpan<ulong> reference, ReadOnlySpan<ulong> candidate)
    {
        int units = Math.Min(reference.Length, candidate.Length) / 2;
        int batches = Math.Min(Batches, units);
        var result = new (double, double)[batches];
        int count = 0;
        for (int b = 0; b < batches; b++)
        {
            // Sizes differ by at most one unit: the remainder spreads over the batches instead of piling into the last.
            int start = 2 * (int)((long)units * b / batches), end = 2 * (int)((long)units * (b + 1) / batches);
            double r = Floor(reference[start..end]), c = Floor(candidate[start..end]);
            if (r > 0 && c > 0)
                result[count++] = (Math.Log(c / r), (Math.Log(c) + Math.Log(r)) / 2);
        }

        return result[..count];
    }

    /// <summary>
    /// The paired location and its interval, on the log scale: the median of the batch ratios and the narrowest
    /// order-statistic interval that covers it with at least <paramref name="confidence"/>; with too few batches for that,
    /// the range of all of them and the coverage it has.
    /// </summary>
    /// <param name="batchRatios">Every measurement's batch log-ratios.</param>
    /// <param name="confidence">The wanted two-sided coverage, in (0, 1).</param>
    /// <returns>The location, the interval's ends and its coverage; NaN throughout without batches.</returns>
    public static (double Location, double Low, double High, double Coverage) Interval(ReadOnlySpan<double> batchRatios, double confidence)
    {
        int n = batchRatios.Length;
        if (n == 0)
            return (double.NaN, double.NaN, double.NaN, double.NaN);

        double[] sorted = batchRatios.ToArray();
        Array.Sort(sorted);
        double location = Median(sorted);
        if (OrderStatistics.Ranks(n, 0.5, (1 - confidence) / 2) is (long l, long u))
            return (location, sorted[l - 1], sorted[u - 1], OrderStatistics.Coverage(n, 0.5, l, u));
        return (location, sorted[0], sorted[^1], OrderStatistics.Coverage(n, 0.5, 1, n));
    }

    /// <summary>
    /// Cohen's d_z of the paired log differences: the units' mean over their standard deviation, both over the units
    /// winsorized at their 10th and 90th percentiles. Positive when the candidate is slower; NaN with fewer than 2 units,
    /// ±∞ when every unit is the same non-zero difference.
    /// </summary>
    /// <param name="units">The units (any order).</param>
    /// <returns>d_z.</returns>
    public static double CohensDz(ReadOnlySpan<double> units)
    {
        int n = units.Length;
        if (n < 2)
            return double.NaN;

        double[] sorted = units.ToArray();
        Array.Sort(sorted);
        double low = sorted[(int)((n - 1) * Winsor)], high = sorted[(int)Math.Ceiling((n - 1) * (1 - Winsor))];
        double sum = 0;
        foreach (double u in sorted)
            sum += Math.Clamp(u, low, high);
        double mean = sum / n;
        double squares = 0;
        foreach (double u in sorted)
        {
            double d = Math.Clamp(u, low, high) - mean;
            squares += d * d;
        }

        double sd = Math.Sqrt(squares / (n - 1));
        return sd > 0 ? mean / sd : mean == 0 ? 0 : mean > 0 ? double.PositiveInfinity : double.NegativeInfinity;
    }

    // A stretch's floor: its lower FloorQuantile by rank, from a sorted copy.
    private static double Floor(ReadOnlySpan<ulong> samples)
    {
        ulong[] sorted = samples.ToArray();
        Array.Sort(sorted);
        return sorted[(int)((sorted.Length - 1) * FloorQuantile)];
    }

    // The median of values (a copy is sorted); the mean of the middle two for an even count.
    private static double Median(ReadOnlySpan<double> values)
    {
        double[] sorted = values.ToArray();
        Array.Sort(sorted);
        int n = sorted.Length;
        return n == 0 ? double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[(n / 2) - 1] + sorted[n / 2]) / 2;
    }
}
