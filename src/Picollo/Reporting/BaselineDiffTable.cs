using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Metrics;
using Picollo.Text;

namespace Picollo.Reporting;

/// <summary>
/// The diff table of one counter against its baseline, per operation: the histograms hold per-sample totals, and the
/// two runs may have grouped a different number of operations per sample, so each side's values are divided by its own
/// operations per sample before they are put side by side (the same division the verdict makes).
/// </summary>
/// <remarks>
/// The table shows the effect sizes of the verdict line, named as such: z, which decided, and for time Cohen's d of the
/// floor regions (a d of the means, which a disturbed upper half blinds, disagreed with the verdict line in the same
/// message, so it is not shown). An exact verdict has none: its rows are the exact per-operation statistics, and a change
/// of one byte per operation is the whole story.
/// </remarks>
internal static class BaselineDiffTable
{
    /// <summary>A level-5 heading, the table, and a blank line.</summary>
    /// <param name="baseline">The baseline's counter.</param>
    /// <param name="current">The measured counter.</param>
    /// <param name="verdict">The verdict that compared them: its mode chooses the rows, its effect size is shown.</param>
    /// <returns>The markdown text.</returns>
    public static string ToMarkdown(BaselineCounter baseline, BaselineCounter current, CounterVerdict verdict)
    {
        var table = new MarkdownTable(("Percentile", false), ("Baseline", true), ("Current", true), ("Δ%", true));
        PerOperationSummary b = baseline.PerOperation, a = current.PerOperation;
        if (verdict.Mode == VerdictMode.Exact)
        {
            table.AddRow(Percentile.FormatRank(0), Number(b.P0), Number(a.P0), Change(b.P0, a.P0));
            table.AddRow(Percentile.FormatRank(50), Number(b.P50), Number(a.P50), Change(b.P50, a.P50));
            table.AddRow(Percentile.FormatRank(90), Number(b.P90), Number(a.P90), Change(b.P90, a.P90));
            table.AddRow(Percentile.FormatRank(99), Number(b.P99), Number(a.P99), Change(b.P99, a.P99));
            table.AddRow(Percentile.FormatRank(100), Number(b.P100), Number(a.P100), Change(b.P100, a.P100));
        }
        else
        {
            HdrHistogramSummary before = baseline.Histogram.GetSummary(), after = current.Histogram.GetSummary();
            double opsBefore = baseline.OperationsPerSample, opsAfter = current.OperationsPerSample;
            ReadOnlySpan<Percentile> bp = before.Percentiles, ap = after.Percentiles;
            for (int i = 0; i < bp.Length; i++)
            {
                table.AddRow(
                    Percentile.FormatRank(bp[i].Rank),
                    Number(bp[i].Value / opsBefore),
                    Number(ap[i].Value / opsAfter),
                    Change(bp[i].Value / opsBefore, ap[i].Value / opsAfter));
            }
        }

        table.AddRow();
        table.AddRow("Mean:", Number(b.Mean), Number(a.Mean), Change(b.Mean, a.Mean));
        table.AddRow("Ops/sample:", Number(baseline.OperationsPerSample), Number(current.OperationsPerSample), string.Empty);
        table.AddRow("Samples:", Number(b.Samples), Number(a.Samples), string.Empty);
        table.AddRow(
            "Verdict:",
            verdict.Statistic.ToString(),
            verdict.Mode == VerdictMode.Exact
                ? "exact"
                : string.Create(CultureInfo.InvariantCulture, $"{CounterVerdict.EffectSizeName} = {verdict.EffectSize:0.00}"),
            verdict.Status.ToString().ToLowerInvariant());

        // Cohen's d of the floor regions (the lowest quarter of each side, log scale), beside z: the effect size the product
        // promises, computed where a disturbed upper half cannot blind it; and what the conditions allowed, when they did.
        if (verdict.CohensD is { } d)
            table.AddRow("Cohen's d:", "floor", d.ToString("0.00;-0.00;0.00", CultureInfo.InvariantCulture), string.Empty);
        if (verdict.Allowance is { High: > 0 } allowance)
        {
            string allowed = string.Create(CultureInfo.InvariantCulture, $"+{(Math.Exp(allowance.High) - 1) * 100:0}%");
            table.AddRow("Allowed:", "up to", allowed, string.Empty);
        }

        var text = new StringBuilder();
        table.WriteTo(text, $"{current.Name} ({current.Unit} per operation): baseline vs current");
        return text.ToString();
    }

    /// <summary>
    /// A per-operation value: invariant culture, thousands separators, up to 3 decimals (0.01 branch misses per
    /// operation survive).
    /// </summary>
    public static string Number(double value) => CounterVerdict.Number(value);

    /// <summary>
    /// The change from <paramref name="before"/> to <paramref name="after"/> in percent, signed; ∞ from zero to
    /// non-zero.
    /// </summary>
    public static string Change(double before, double after)
    {
        if (before == 0)
            return after == 0 ? "0%" : "+∞";

        return ((after - before) / before * 100).ToString("+#,0.##;-#,0.##;0", CultureInfo.InvariantCulture) + "%";
    }
}
