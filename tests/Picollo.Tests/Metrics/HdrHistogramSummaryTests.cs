using System.Text.RegularExpressions;
using Picollo.Metrics;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed partial class HdrHistogramSummaryTests
{
    [Fact]
    public void SummaryAndDiffTables_KeepTheirPaddedLayout()
    {
        (HdrHistogramSummary before, HdrHistogramSummary after) = ArticleSummaries();

        Approvals.Verify(before.ToMarkdown("Histogram Before") + before.ToMarkdownDiff(after, "Getting Started Diff", "Before", "After"), "Summary.GettingStarted");
    }

    [Fact]
    public void Tables_AreValidMarkdown()
    {
        (HdrHistogramSummary before, HdrHistogramSummary after) = ArticleSummaries();

        foreach (string text in new[] { before.ToMarkdown("T"), before.ToMarkdownDiff(after, "D", "A", "B"), new HdrHistogramSummary().ToMarkdown() })
        {
            string[] lines = text.Split('\n');
            lines[0].ShouldStartWith("##### ");
            string[] rows = lines.Skip(1).TakeWhile(l => l.Length > 0).ToArray();
            int cells = rows[0].Count(c => c == '|');
            foreach (string row in rows)
            {
                row.ShouldStartWith("| ");
                row.ShouldEndWith(" |");
                row.Count(c => c == '|').ShouldBe(cells, row);
                row.Length.ShouldBe(rows[0].Length, row);
            }

            DelimiterRow().IsMatch(rows[1]).ShouldBeTrue(rows[1]);
            text.ShouldEndWith("|\n\n");
        }
    }

    [Fact]
    public void OverflowAndRangeRows_AppearOnlyWhenValuesOverflowed()
    {
        var h = HdrHistogram.Factory.WithMinTrackableValue(10).WithMaxTrackableValue(100).Create();
        h.Record(50);
        string clean = h.GetSummary().ToMarkdown();
        clean.ShouldNotContain("Overflow");
        clean.ShouldNotContain("Range Min:");

        h.Record(1_000);
        string overflowed = h.GetSummary().ToMarkdown();
        overflowed.ShouldContain("| Overflow   |");
        RangeRow().IsMatch(overflowed).ShouldBeTrue(overflowed);
    }

    [Fact]
    [Trait("Category", "Console")]
    public void PrettyPrint_PrintsAndReturnsTheSameText()
    {
        (HdrHistogramSummary before, HdrHistogramSummary after) = ArticleSummaries();
        var writer = new StringWriter();
        TextWriter original = Console.Out;
        string printed, diff;
        lock (ConsoleLock.Instance)
        {
            Console.SetOut(writer);
            try
            {
                printed = before.PrettyPrint("X");
                diff = before.PrettyPrintDiff(after, "Y", "A", "B");
            }
            finally
            {
                Console.SetOut(original);
            }
        }

        printed.ShouldBe(before.ToMarkdown("X"));
        diff.ShouldBe(before.ToMarkdownDiff(after, "Y", "A", "B"));
        writer.ToString().ShouldBe(printed + diff);
    }

    [Fact]
    public void Moments_AreTheCountWeightedMeanAndPopulationStdDevOfMidpoints()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).Create();
        h.Record(10, 3);
        h.Record(20, 1);

        var s = h.GetSummary();
        s.Mean.ShouldBe(12.5);
        s.StdDev.ShouldBe(Math.Sqrt((3 * 2.5 * 2.5 + 7.5 * 7.5) / 4));
        s.TotalCount.ShouldBe(4UL);
        s.P50.Value.ShouldBe(10UL);
        s.P100.Value.ShouldBe(20UL);
    }

    [Fact]
    public void Moments_OfANarrowDistributionOfLargeValues_DoNotCancel()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.000_001).WithMinTrackableValue(1UL << 40).WithMaxTrackableValue((1UL << 40) + 1_000_000).Create();
        var layout = h.Layout;
        ulong a = layout.GetBucketMidpoint(layout.GetLogicalIndexForValue(1UL << 40));
        ulong b = layout.GetBucketMidpoint(layout.GetLogicalIndexForValue((1UL << 40) + 500_000));
        h.Record(a, 1_000_000);
        h.Record(b, 1_000_000);

        var s = h.GetSummary();
        s.StdDev.ShouldBe((b - a) / 2.0, tolerance: 1e-3);
    }

    [Fact]
    public void CohensD_IsTheMeanShiftOverTheCountWeightedPooledStdDev()
    {
        var x = HdrHistogram.Factory.Create();
        var y = HdrHistogram.Factory.Create();
        x.Record(100, 1);
        x.Record(300, 1);   // mean 200, sd 100
        y.Record(250, 2);
        y.Record(450, 2);   // mean 350, sd 100, twice the weight

        double d = HdrHistogramSummary.CohensD(x.GetSummary(), y.GetSummary());

        d.ShouldBe(1.5, tolerance: 1e-9);
        HdrHistogramSummary.CohensD(y.GetSummary(), x.GetSummary()).ShouldBe(-1.5, tolerance: 1e-9);
    }

    [Fact]
    public void CohensD_OfZeroVarianceCountersOneApart_IsFiniteAndLarge()
    {
        var x = HdrHistogram.Factory.Create();
        var y = HdrHistogram.Factory.Create();
        x.Record(88, 1_000);
        y.Record(89, 1_000);

        double d = HdrHistogramSummary.CohensD(x.GetSummary(), y.GetSummary());

        // Half a unit is the finest difference an integer counter can resolve.
        d.ShouldBe(2.0);
        HdrHistogramSummary.CohensD(x.GetSummary(), x.GetSummary()).ShouldBe(0.0);
    }

    [Fact]
    public void CohensD_WithAnEmptySide_IsNaNAndPrintedAsNotApplicable()
    {
        var x = HdrHistogram.Factory.Create();
        x.Record(5);
        var empty = HdrHistogram.Factory.Create().GetSummary();

        HdrHistogramSummary.CohensD(x.GetSummary(), empty).ShouldBe(double.NaN);
        string diff = x.GetSummary().ToMarkdownDiff(empty, "t", "a", "b");
        diff.ShouldContain("D-value:");
        diff.ShouldContain("n/a |\n\n");
    }

    [Fact]
    public void Diff_MarksChangesWithSignAndZeroWithoutOne()
    {
        var x = HdrHistogram.Factory.WithRelativeError(0.1).Create();
        var y = HdrHistogram.Factory.WithRelativeError(0.1).Create();
        x.Record(10, 1_000);
        y.Record(10, 999);
        y.Record(11, 1);

        string diff = x.GetSummary().ToMarkdownDiff(y.GetSummary(), "t", "a", "b");

        string compact = Spaces().Replace(diff, " ");
        compact.ShouldContain("| 0 | 10 | 10 | 0.0% |");
        compact.ShouldContain("| 100 | 10 | 11 | +10.0% |");
        compact.ShouldContain("| Total: | 1,000 | 1,000 | 0.0% |");
    }

    [Fact]
    public void OneLineToString_ListsTotalsMeanAndTheMonitoringPercentiles()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).Create();
        for (ulong v = 1; v <= 100; v++)
            h.Record(v);

        h.GetSummary().ToString("latency").ShouldBe(
            "latency: Total=100, Overflow=0, Mean=50.5, P0=1, P25=25, P50=50, P90=90, P95=95, P99=99, P999=100, P100=100");
    }

    [Fact]
    public void GetSummary_WithAReuseInstance_RefillsItInPlaceWithoutAllocating()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).Create();
        for (ulong v = 1; v < 10_000; v += 7)
            h.Record(v);
        var summary = h.GetSummary();
        h.GetSummary(summary).ShouldBeSameAs(summary);

        long allocated = AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 10; i++)
                h.GetSummary(summary);
        });

        allocated.ShouldBe(0);
        summary.TimestampUtc.ShouldBeInRange(DateTime.UtcNow.AddMinutes(-1), DateTime.UtcNow);
    }

    [Fact]
    public void Record_AllocatesNothing()
    {
        var h32 = HdrHistogram.Factory.WithUInt32Storage().Create();
        var h64 = HdrHistogram.Factory.Create();
        h32.Record(1);
        h64.Record(1, 2);

        AllocationProbe.Measure(() =>
        {
            for (ulong v = 0; v < 100_000; v++)
            {
                h32.Record(v * 977);
                h64.Record(v * 977, 3);
            }
        }).ShouldBe(0);
    }

    [Fact]
    public void EmptyHistogram_SummarizesToZeros()
    {
        var s = HdrHistogram.Factory.Create().GetSummary();

        s.TotalCount.ShouldBe(0UL);
        s.Mean.ShouldBe(0);
        s.StdDev.ShouldBe(0);
        s.P99.Value.ShouldBe(0UL);
        Spaces().Replace(s.ToMarkdown(), " ").ShouldContain("| Mean: | 0.00 | StDev: | 0.00 |");
    }

    internal static (HdrHistogramSummary Before, HdrHistogramSummary After) ArticleSummaries()
    {
        var h = ArticleWorkload.CreateHistogram();
        var rng = new Random(0);
        ArticleWorkload.RecordFirst(h, rng);
        h.Record(40_000);
        var before = h.GetSummary();
        h.Reset();
        ArticleWorkload.RecordSecond(h, rng);
        return (before, h.GetSummary());
    }

    [GeneratedRegex(@"^\| (:-+|-+:)( \| (:-+|-+:))* \|$")]
    private static partial Regex DelimiterRow();

    [GeneratedRegex(" +")]
    private static partial Regex Spaces();

    [GeneratedRegex(@"\| Range Min: \| +10 \| Max: +\| +100 \|")]
    private static partial Regex RangeRow();
}
