using Picollo.Cli.Ab;

namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// The significance test between two adjacent segments of a series, and their central values. Student's t,
/// as Apache Otava (Hunter) tests a split instead of Matteson and James' permutation test: the same answer on every run, in
/// O(n log n) instead of hundreds of re-searches, and right for segments of a few points.
/// </summary>
internal static class SegmentTest
{
    /// <summary>The two-sided p-value that [<paramref name="from"/>, <paramref name="split"/>) and
    /// [<paramref name="split"/>, <paramref name="to"/>) have the same level.</summary>
    /// <param name="series">The whole series.</param>
    /// <param name="from">The first segment's first index.</param>
    /// <param name="split">The second segment's first index.</param>
    /// <param name="to">The index after the second segment's last.</param>
    /// <param name="test">What the test reads.</param>
    /// <returns>The p-value, in [0, 1].</returns>
    public static double PValue(double[] series, int from, int split, int to, ChangePointTest test)
    {
        double[] values = series[from..to];
        if (test == ChangePointTest.Ranks)
            values = Ranks(values);

        return StudentP(values, split - from);
    }

    /// <summary>The median of [<paramref name="from"/>, <paramref name="to"/>): the segment's level, which a few runs in
    /// a slow host state do not move.</summary>
    /// <param name="series">The whole series.</param>
    /// <param name="from">The first index.</param>
    /// <param name="to">The index after the last; more than <paramref name="from"/>.</param>
    /// <returns>The median (the mean of the middle two for an even count).</returns>
    public static double Median(double[] series, int from, int to)
    {
        double[] sorted = series[from..to];
        Array.Sort(sorted);
        int half = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
    }

    // Student's t with the pooled variance between values[..n1] and values[n1..], two-sided. With no spread at all the
    // levels are either equal (p = 1) or certainly different (p = 0).
    private static double StudentP(double[] values, int n1)
    {
        int n2 = values.Length - n1;
        double mean1 = Mean(values.AsSpan(0, n1)), mean2 = Mean(values.AsSpan(n1));
        double squares = 0;
        for (int i = 0; i < values.Length; i++)
        {
            double d = values[i] - (i < n1 ? mean1 : mean2);
            squares += d * d;
        }

        int df = values.Length - 2;
        double pooled = squares / df;
        if (pooled == 0)
            return mean1 == mean2 ? 1 : 0;

        double t = (mean2 - mean1) / Math.Sqrt(pooled * ((1.0 / n1) + (1.0 / n2)));
        return StudentT.TwoSidedP(t, df);
    }

    private static double Mean(ReadOnlySpan<double> values)
    {
        double sum = 0;
        foreach (double v in values)
            sum += v;
        return sum / values.Length;
    }

    // The ranks 1 … n of the values pooled, ties sharing the mean of the ranks they span.
    private static double[] Ranks(double[] values)
    {
        int[] order = [.. Enumerable.Range(0, values.Length).OrderBy(i => values[i])];
        double[] ranks = new double[values.Length];
        for (int i = 0; i < order.Length;)
        {
            int j = i;
            while (j + 1 < order.Length && values[order[j + 1]] == values[order[i]])
                j++;
            double rank = ((i + j) / 2.0) + 1;
            for (int k = i; k <= j; k++)
                ranks[order[k]] = rank;
            i = j + 1;
        }

        return ranks;
    }
}
