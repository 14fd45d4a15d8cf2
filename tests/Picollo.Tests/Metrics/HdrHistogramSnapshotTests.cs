using Picollo.Metrics;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrHistogramSnapshotTests
{
    [Fact]
    public void GettingStartedWithASnapshot_PrintsExactlyWhatTheResetVersionPrints()
    {
        // The article's GettingStartedSnapshot: deltas instead of a reset give the same two tables.
        var h = ArticleWorkload.CreateHistogram();
        var rng = new Random(0);
        ArticleWorkload.RecordFirst(h, rng);
        h.Record(40_000);

        var snapshot = h.GetSnapshot();
        var summary = snapshot.GetSummary();
        ArticleWorkload.RecordSecond(h, rng);
        snapshot.Update(deltas: true);
        var summary2 = snapshot.GetSummary();

        (HdrHistogramSummary before, HdrHistogramSummary after) = HdrHistogramSummaryTests.ArticleSummaries();
        summary.ToMarkdown("Histogram Before").ShouldBe(before.ToMarkdown("Histogram Before"));
        summary.ToMarkdownDiff(summary2, "Getting Started Diff", "Before", "After")
            .ShouldBe(before.ToMarkdownDiff(after, "Getting Started Diff", "Before", "After"));
        h.TotalCount.ShouldBe(3_000_000UL, "the histogram itself was never reset");
    }

    [Fact]
    public void Update_WithoutDeltas_HoldsTheTotals()
    {
        var h = HdrHistogram.Factory.Create();
        h.Record(5, 2);
        var snapshot = h.GetSnapshot();
        h.Record(5, 3);

        snapshot.Update(deltas: false);

        snapshot.IsDelta.ShouldBeFalse();
        snapshot.TotalCount.ShouldBe(5UL);
        snapshot.Interval.ShouldBe(TimeSpan.Zero);
    }

    [Fact]
    public void Update_WithDeltas_HoldsOnlyWhatWasRecordedSinceThePreviousUpdate()
    {
        var h = HdrHistogram.Factory.WithMaxTrackableValue(100).Create();
        h.Record(5, 2);
        h.Record(500);
        var snapshot = h.GetSnapshot();
        snapshot.TotalCount.ShouldBe(2UL);
        snapshot.OverflowCount.ShouldBe(1UL);

        h.Record(7, 4);
        snapshot.Update();
        snapshot.IsDelta.ShouldBeTrue();
        snapshot.TotalCount.ShouldBe(4UL);
        snapshot.OverflowCount.ShouldBe(0UL);
        snapshot.GetPercentile(0).Value.ShouldBe(7UL);

        snapshot.Update();
        snapshot.TotalCount.ShouldBe(0UL);
        snapshot.Interval.ShouldBeGreaterThanOrEqualTo(TimeSpan.Zero);
    }

    [Fact]
    public void Update_AfterAReset_HoldsWhatWasRecordedSinceTheReset()
    {
        var h = HdrHistogram.Factory.Create();
        h.Record(5, 10);
        var snapshot = h.GetSnapshot();
        h.Reset();
        h.Record(9, 3);

        snapshot.Update(deltas: true);

        snapshot.TotalCount.ShouldBe(3UL);
        snapshot.GetPercentile(50).Value.ShouldBe(9UL);
    }

    [Fact]
    public void UpdateAndSummary_AllocateNothingInSteadyState()
    {
        var h = HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).Create();
        h.Record(1_000);
        var snapshot = h.GetSnapshot();
        var summary = snapshot.GetSummary();
        var ranks = new double[] { 50, 99 };
        var percentiles = new Percentile[2];

        long allocated = AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 20; i++)
            {
                h.Record((ulong)i * 1_000);
                snapshot.Update(deltas: true);
                snapshot.GetSummary(summary);
                snapshot.GetPercentiles(ranks, percentiles);
            }
        });

        allocated.ShouldBe(0);
        summary.TimestampUtc.ShouldBe(snapshot.TimestampUtc);
        summary.TotalCount.ShouldBe(1UL);
    }

    [Fact]
    public void Percentiles_OfAnUnchangedHistogram_MatchTheHistogramsOwn()
    {
        var h = HdrHistogram.Factory.Create();
        foreach (ulong v in PercentileTests.Generate("lognormal", 10_000, seed: 1))
            h.Record(v);

        var snapshot = h.GetSnapshot();
        foreach (double rank in new[] { 0, 50, 99.9, 100 })
            snapshot.GetPercentile(rank).ShouldBe(h.GetPercentile(rank));
        Should.Throw<ArgumentOutOfRangeException>(() => snapshot.GetPercentile(101));
    }
}
