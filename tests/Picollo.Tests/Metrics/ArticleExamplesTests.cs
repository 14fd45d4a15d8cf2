using System.Text;
using Picollo.Metrics;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

/// <summary>
/// The article's histogram examples, same code and seed, reproduce its printed output. The article's
/// tables were rendered by a web page that collapsed the padding, so those comparisons ignore runs of
/// spaces; the padded layout itself is locked by <see cref="HdrHistogramSummaryTests"/>.
/// </summary>
public sealed class ArticleExamplesTests
{
    [Fact]
    public void GettingStarted_ReproducesTheArticlesP99LineSummaryAndDiffTables()
    {
        var h = ArticleWorkload.CreateHistogram();
        var rng = new Random(0);
        ArticleWorkload.RecordFirst(h, rng);
        h.Record(40_000);

        var summary = h.GetSummary();
        h.Reset();
        ArticleWorkload.RecordSecond(h, rng);
        var summary2 = h.GetSummary();

        string output = $"P99: {summary.P99}\n"
            + summary.ToMarkdown("Histogram Before")
            + summary.ToMarkdownDiff(summary2, "Getting Started Diff", "Before", "After");

        Approvals.VerifyIgnoringPadding(output.TrimEnd('\n') + "\n", "Article.GettingStarted");
    }

    [Fact]
    public void Percentiles_ReproducesTheArticlesBucketPercentiles()
    {
        var h = ArticleWorkload.CreateHistogram();
        ArticleWorkload.RecordFirst(h, new Random(0));

        var output = new StringBuilder();
        foreach (Percentile percentile in h.BucketPercentilesWithValues)
            output.Append(percentile).Append('\n');

        Approvals.VerifyIgnoringPadding(output.ToString(), "Article.Percentiles");
    }

    [Fact]
    public void CustomPercentiles_ReproducesTheArticlesBatchAndScalarLines()
    {
        var h = ArticleWorkload.CreateHistogram();
        ArticleWorkload.RecordFirst(h, new Random(0));
        ReadOnlySpan<double> ranks = [90.0, 91, 92, 93, 94, 95, 96, 97, 98];
        var percentiles = new Percentile[ranks.Length];
        var values = new ulong[ranks.Length];
        h.GetPercentiles(ranks, percentiles);
        h.GetPercentileValues(ranks, values);

        var output = new StringBuilder();
        foreach (Percentile percentile in percentiles)
            output.Append(percentile).Append('\n');
        foreach (double rank in ranks)
            output.Append(FormattableString.Invariant($"{rank:N0}: {h.GetPercentileValue(rank):N0}\n"));

        // The article's listing stops after rank 95 of the scalar loop; everything it shows must match.
        string[] article = File.ReadAllLines(Path.Combine(ApprovedFolder(), "Article.CustomPercentiles.approved.txt"));
        string[] ours = output.ToString().TrimEnd('\n').Split('\n');
        ours.Length.ShouldBe(2 * ranks.Length);
        ours.Take(article.Length).ShouldBe(article);
        values.ShouldBe(percentiles.Select(p => p.Value).ToArray());
    }

    private static string ApprovedFolder([System.Runtime.CompilerServices.CallerFilePath] string file = "") =>
        Path.Combine(Path.GetDirectoryName(file)!, "Approved");
}
