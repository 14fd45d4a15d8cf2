using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Metrics;
using Picollo.Text;

namespace Picollo.Reporting;

/// <summary>
/// The diff table of one counter against its baseline, per operation: the histograms hold per-sample totals, and the
/// two runs may have grouped a different number of operations per sample, so each side's values are divided by its own
/// operations per sample before they are put side by side (the same division the verdict makes).
/// </summary>
internal static class BaselineDiffTable
{
    /// <summary>A level-5 heading, the table (percentiles, mean, stdev, ops/sample, samples, d per operation), and a blank line.</summary>
    public static string ToMarkdown(BaselineCounter baseline, BaselineCounter current)
    {
        HdrHistogramSummary before = baseline.Histogram.GetSummary(), after = current.Histogram.GetSummary();
        double opsBefore = baseline.OperationsPerSample, opsAfter = current.OperationsPerSample;
        var table = new MarkdownTable(("Percentile", false), ("Baseline", true), ("Current", true), ("Δ%", true));
        ReadOnlySpan<Percentile> b = before.Percentiles, a = after.Percentiles;
        for (int i = 0; i < b.Length; i++)
            table.AddRow(Percentile.FormatRank(b[i].Rank), Number(b[i].Value / opsBefore), Number(a[i].Value / opsAfter), Change(b[i].Value / opsBefore, a[i].Value / opsAfter));

        table.AddRow();
        table.AddRow("Mean:", Number(before.Mean / opsBefore), Number(after.Mean / opsAfter), Change(before.Mean / opsBefore, after.Mean / opsAfter));
        table.AddRow("StDev:", Number(before.StdDev / opsBefore), Number(after.StdDev / opsAfter), Change(before.StdDev / opsBefore, after.StdDev / opsAfter));
        table.AddRow("Ops/sample:", Number(opsBefore), Number(opsAfter), string.Empty);
        table.AddRow("Samples:", Number(before.TotalCount), Number(after.TotalCount), string.Empty);
        double d = HdrHistogramSummary.CohensD(before, after, Math.Max(1, opsBefore), Math.Max(1, opsAfter));
        table.AddRow("D-value:", string.Empty, string.Empty, double.IsNaN(d) ? "n/a" : d.ToString("0.00", CultureInfo.InvariantCulture));

        var text = new StringBuilder();
        table.WriteTo(text, $"{current.Name} ({current.Unit} per operation): baseline vs current");
        return text.ToString();
    }

    /// <summary>A per-operation value: invariant culture, thousands separators, up to 3 decimals (0.01 branch misses per operation survive).</summary>
    public static string Number(double value) => value.ToString("#,0.###", CultureInfo.InvariantCulture);

    /// <summary>The change from <paramref name="before"/> to <paramref name="after"/> in percent, signed; ∞ from zero to non-zero.</summary>
    public static string Change(double before, double after)
    {
        if (before == 0)
            return after == 0 ? "0%" : "+∞";

        return ((after - before) / before * 100).ToString("+#,0.##;-#,0.##;0", CultureInfo.InvariantCulture) + "%";
    }
}
