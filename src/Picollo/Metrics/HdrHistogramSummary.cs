using System.Globalization;
using System.Text;
using Picollo.Text;

namespace Picollo.Metrics;

/// <summary>
/// The standard percentiles and moments of a histogram at one moment, with markdown renderings.
/// Reusable: pass an existing instance to <see cref="HdrHistogram.GetSummary"/> to refill it without allocating.
/// </summary>
public sealed class HdrHistogramSummary
{
    private static readonly double[] s_ranks = [0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100];
    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    private readonly Percentile[] _percentiles = new Percentile[s_ranks.Length];

    // Counter copy reused across refills; only GetSummary touches it.
    private ulong[] _scratch = [];

    /// <summary>The ranks every summary holds: 0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100.</summary>
    public static ReadOnlySpan<double> Ranks => s_ranks;

    /// <summary>The percentiles, one per entry of <see cref="Ranks"/>.</summary>
    public ReadOnlySpan<Percentile> Percentiles => _percentiles;

    /// <summary>The minimum (first non-empty bucket).</summary>
    public Percentile P0 => _percentiles[0];

    /// <summary>Percentile 1.</summary>
    public Percentile P1 => _percentiles[1];

    /// <summary>Percentile 5.</summary>
    public Percentile P5 => _percentiles[2];

    /// <summary>Percentile 10.</summary>
    public Percentile P10 => _percentiles[3];

    /// <summary>Percentile 25 (first quartile).</summary>
    public Percentile P25 => _percentiles[4];

    /// <summary>Percentile 50 (median).</summary>
    public Percentile P50 => _percentiles[5];

    /// <summary>Percentile 75 (third quartile).</summary>
    public Percentile P75 => _percentiles[6];

    /// <summary>Percentile 90.</summary>
    public Percentile P90 => _percentiles[7];

    /// <summary>Percentile 92.5.</summary>
    public Percentile P92_5 => _percentiles[8];

    /// <summary>Percentile 95.</summary>
    public Percentile P95 => _percentiles[9];

    /// <summary>Percentile 97.5.</summary>
    public Percentile P97_5 => _percentiles[10];

    /// <summary>Percentile 99.</summary>
    public Percentile P99 => _percentiles[11];

    /// <summary>Percentile 99.9.</summary>
    public Percentile P99_9 => _percentiles[12];

    /// <summary>Percentile 99.99.</summary>
    public Percentile P99_99 => _percentiles[13];

    /// <summary>Percentile 99.999.</summary>
    public Percentile P99_999 => _percentiles[14];

    /// <summary>The maximum (last non-empty bucket).</summary>
    public Percentile P100 => _percentiles[15];

    /// <summary>Values recorded inside the trackable range.</summary>
    public ulong TotalCount { get; private set; }

    /// <summary>Values recorded outside the trackable range (not part of the percentiles or moments).</summary>
    public ulong OverflowCount { get; private set; }

    /// <summary>Count-weighted mean of the bucket midpoints.</summary>
    public double Mean { get; private set; }

    /// <summary>Count-weighted population standard deviation of the bucket midpoints.</summary>
    public double StdDev { get; private set; }

    /// <summary>The histogram's worst-case relative error (the "Precision" row).</summary>
    public double RelativeError { get; private set; }

    /// <summary>The histogram's min trackable value.</summary>
    public ulong MinTrackableValue { get; private set; }

    /// <summary>The histogram's max trackable value.</summary>
    public ulong MaxTrackableValue { get; private set; }

    /// <summary>When the summary was taken (UTC).</summary>
    public DateTime TimestampUtc { get; private set; }

    /// <summary>
    /// Cohen's d of <paramref name="after"/> against <paramref name="before"/>: (mean after − mean before) /
    /// pooled standard deviation, the pooled variance weighted by each side's count.
    /// </summary>
    /// <remarks>
    /// The pooled deviation is floored at what the histograms can resolve, half a unit or the relative
    /// error times the larger mean, so two zero-variance counters that differ by one give a finite,
    /// meaningful d instead of infinity. NaN when either side is empty.
    /// </remarks>
    /// <param name="before">The reference summary.</param>
    /// <param name="after">The compared summary.</param>
    /// <returns>The effect size; negative when <paramref name="after"/> is lower.</returns>
    public static double CohensD(HdrHistogramSummary before, HdrHistogramSummary after) => CohensD(before, after, 1, 1);

    /// <summary>
    /// Cohen's d of two summaries whose values are totals over several operations: each side's mean and
    /// standard deviation are divided by its own operations per value first, so runs that grouped a
    /// different number of operations per sample compare per operation.
    /// </summary>
    /// <param name="before">The reference summary.</param>
    /// <param name="after">The compared summary.</param>
    /// <param name="beforeOperations">Operations behind each value of <paramref name="before"/> (≥ 1).</param>
    /// <param name="afterOperations">Operations behind each value of <paramref name="after"/> (≥ 1).</param>
    /// <returns>The effect size per operation; NaN when either side is empty.</returns>
    /// <exception cref="ArgumentOutOfRangeException">An operation count is not ≥ 1.</exception>
    public static double CohensD(HdrHistogramSummary before, HdrHistogramSummary after, double beforeOperations, double afterOperations)
    {
        if (!CanCompare(before, after, beforeOperations, afterOperations))
            return double.NaN;

        double m1 = before.Mean / beforeOperations, m2 = after.Mean / afterOperations;
        double s1 = before.StdDev / beforeOperations, s2 = after.StdDev / afterOperations;
        return Effect(before, after, m1, m2, s1, s2, Math.Max(beforeOperations, afterOperations));
    }

    private static bool CanCompare(HdrHistogramSummary before, HdrHistogramSummary after, double beforeOperations, double afterOperations)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        if (!(beforeOperations >= 1))
            throw new ArgumentOutOfRangeException(nameof(beforeOperations), beforeOperations, "Operations per value must be 1 or more.");
        if (!(afterOperations >= 1))
            throw new ArgumentOutOfRangeException(nameof(afterOperations), afterOperations, "Operations per value must be 1 or more.");
        return before.TotalCount != 0 && after.TotalCount != 0;
    }

    // (m2 − m1) over the count-weighted pooled deviation, floored at what the data can resolve: half a unit of
    // the recorded value spread over its operations, or the relative error at the larger center.
    private static double Effect(
        HdrHistogramSummary before, HdrHistogramSummary after, double m1, double m2, double s1, double s2, double operations)
    {
        double n1 = before.TotalCount, n2 = after.TotalCount;
        double pooled = Math.Sqrt(((n1 * s1 * s1) + (n2 * s2 * s2)) / (n1 + n2));
        double resolution = Math.Max(
            0.5 / operations, Math.Max(before.RelativeError, after.RelativeError) * Math.Max(Math.Abs(m1), Math.Abs(m2)));
        return (m2 - m1) / Math.Max(pooled, resolution);
    }

    /// <summary>Renders the summary as a markdown table, prints it to the console, and returns the same text.</summary>
    /// <param name="title">The heading above the table.</param>
    /// <returns>The printed text.</returns>
    public string PrettyPrint(string title = "Histogram summary")
    {
        string text = ToMarkdown(title);
        Console.Out.Write(text);
        return text;
    }

    /// <summary>Renders the summary as a markdown table: percentile, value, ± (half the bucket width), count at rank.</summary>
    /// <param name="title">The heading above the table.</param>
    /// <returns>A level-5 heading, the table, and a blank line.</returns>
    public string ToMarkdown(string title = "Histogram summary")
    {
        var table = new MarkdownTable(("Percentile", false), ("Value", true), ("±", false), ("Count", true));
        foreach (Percentile p in _percentiles)
            table.AddRow(Percentile.FormatRank(p.Rank), N0(p.Value), "±" + N0(p.HalfWidth), N0(p.CountAtRank));

        if (OverflowCount != 0)
            table.AddRow("Overflow", string.Empty, string.Empty, N0(OverflowCount));

        table.AddRow();
        table.AddRow("Mean:", N2(Mean), "StDev:", N2(StdDev));
        table.AddRow("Precision:", Percent(RelativeError), "Total:", N0(TotalCount));

        // The range explains an overflow; without one it is noise.
        if (OverflowCount != 0)
            table.AddRow("Range Min:", N0(MinTrackableValue), "Max:", N0(MaxTrackableValue));

        var builder = new StringBuilder();
        table.WriteTo(builder, title);
        return builder.ToString();
    }

    /// <summary>
    /// Renders this summary and <paramref name="other"/> side by side with the change of every row and
    /// Cohen's d, prints it to the console, and returns the same text.
    /// </summary>
    /// <param name="other">The summary to compare with this one.</param>
    /// <param name="title">The heading above the table.</param>
    /// <param name="name">Column header for this summary.</param>
    /// <param name="otherName">Column header for <paramref name="other"/>.</param>
    /// <returns>The printed text.</returns>
    public string PrettyPrintDiff(
        HdrHistogramSummary other, string title = "Histogram diff", string name = "Before", string otherName = "After")
    {
        string text = ToMarkdownDiff(other, title, name, otherName);
        Console.Out.Write(text);
        return text;
    }

    /// <summary>Renders this summary and <paramref name="other"/> side by side with Δ% per row and Cohen's d.</summary>
    /// <param name="other">The summary to compare with this one.</param>
    /// <param name="title">The heading above the table.</param>
    /// <param name="name">Column header for this summary.</param>
    /// <param name="otherName">Column header for <paramref name="other"/>.</param>
    /// <returns>A level-5 heading, the table, and a blank line.</returns>
    public string ToMarkdownDiff(
        HdrHistogramSummary other, string title = "Histogram diff", string name = "Before", string otherName = "After")
    {
        ArgumentNullException.ThrowIfNull(other);
        var table = new MarkdownTable(("Percentile", false), (name, true), (otherName, true), ("Δ%", true));
        for (int i = 0; i < _percentiles.Length; i++)
        {
            ulong a = _percentiles[i].Value, b = other._percentiles[i].Value;
            table.AddRow(Percentile.FormatRank(_percentiles[i].Rank), N0(a), N0(b), Change(a, b));
        }

        table.AddRow();
        table.AddRow("Mean:", N2(Mean), N2(other.Mean), Change(Mean, other.Mean));
        table.AddRow("StDev:", N2(StdDev), N2(other.StdDev), Change(StdDev, other.StdDev));
        table.AddRow("Precision:", Percent(RelativeError), Percent(other.RelativeError), Change(RelativeError, other.RelativeError));
        table.AddRow("Total:", N0(TotalCount), N0(other.TotalCount), Change(TotalCount, other.TotalCount));
        double d = CohensD(this, other);
        table.AddRow("D-value:", string.Empty, string.Empty, double.IsNaN(d) ? "n/a" : N2(d));

        var builder = new StringBuilder();
        table.WriteTo(builder, title);
        return builder.ToString();
    }

    /// <summary>A one-line digest for monitoring loops: total, overflow, mean and P0/25/50/90/95/99/99.9/100.</summary>
    /// <param name="name">The metric's name, printed first.</param>
    /// <returns>For example <c>latency: Total=1,000, Overflow=0, Mean=21,443.7, P0=20,096, …, P100=25,216</c>.</returns>
    public string ToString(string name) => string.Create(
        s_invariant,
        $"{name}: Total={TotalCount:N0}, Overflow={OverflowCount:N0}, Mean={Mean:N1}, P0={P0.Value:N0}, P25={P25.Value:N0}, " +
        $"P50={P50.Value:N0}, P90={P90.Value:N0}, P95={P95.Value:N0}, P99={P99.Value:N0}, P999={P99_9.Value:N0}, P100={P100.Value:N0}");

    /// <inheritdoc />
    public override string ToString() => ToString("Histogram");

    /// <summary>Refills this instance from a histogram; reuses the counter copy from the previous refill.</summary>
    internal void Fill(HdrHistogram histogram)
    {
        if (_scratch.Length < histogram.BucketCount)
            _scratch = new ulong[histogram.BucketCount];

        ulong overflow = histogram.CopyCounts(_scratch);
        Fill(new HdrCounts(histogram.Layout, histogram.FirstLogicalIndex, _scratch.AsSpan(0, histogram.BucketCount), overflow),
            histogram.MinTrackableValue,
            histogram.MaxTrackableValue,
            DateTime.UtcNow);
    }

    /// <summary>Refills this instance from one consistent copy of counters.</summary>
    internal void Fill(HdrCounts counts, ulong minTrackable, ulong maxTrackable, DateTime timestampUtc)
    {
        ulong total = counts.Total();
        counts.GetPercentiles(s_ranks, _percentiles, Percentile.DefaultEquivalentValueSelection, total);
        (Mean, StdDev) = counts.GetMoments(total);
        TotalCount = total;
        OverflowCount = counts.Overflow;
        RelativeError = counts.Layout.RelativeError;
        MinTrackableValue = minTrackable;
        MaxTrackableValue = maxTrackable;
        TimestampUtc = timestampUtc;
    }

    private static string N0(ulong value) => value.ToString("N0", s_invariant);

    private static string N2(double value) => value.ToString("N2", s_invariant);

    private static string Percent(double fraction) => (fraction * 100).ToString("0.0000", s_invariant) + "%";

    /// <summary>Relative change in percent with one decimal and an explicit sign; "0.0%" when it rounds to zero.</summary>
    private static string Change(double before, double after)
    {
        if (before == after)
            return "0.0%";
        if (before == 0)
            return "n/a";

        double percent = (after - before) / Math.Abs(before) * 100;
        string text = Math.Abs(percent).ToString("N1", s_invariant);
        if (text == "0.0")
            return "0.0%";
        return (percent > 0 ? "+" : "-") + text + "%";
    }
}
