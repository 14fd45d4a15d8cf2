using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrHistogramTests
{
    [Fact]
    public void DefaultFactory_TracksTheWholeRangeWith64BitCountersAtOneTenthPercent()
    {
        var h = HdrHistogram.Factory.Create();

        h.RelativeError.ShouldBe(0.5 / 512);
        h.CounterSize.ShouldBe(8);
        h.MinTrackableValue.ShouldBe(0UL);
        h.MaxTrackableValue.ShouldBe(ulong.MaxValue);
        h.BucketCount.ShouldBe(h.Layout.LogicalLength);

        h.Record(0);
        h.Record(ulong.MaxValue);
        h.TotalCount.ShouldBe(2UL);
        h.OverflowCount.ShouldBe(0UL);
        h.GetPercentileValue(100, EquivalentValueSelection.Upper).ShouldBe(ulong.MaxValue);
    }

    [Fact]
    public void TrimmedRange_StoresOnlyTheBucketsBetweenMinAndMax()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage()
            .WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();

        var layout = new HdrBuckets(0.01);
        int first = (int)layout.GetLogicalIndexForValue(10_000);
        int last = (int)layout.GetLogicalIndexForValue(30_000);
        h.FirstLogicalIndex.ShouldBe(first);
        h.BucketCount.ShouldBe(last - first + 1);
        h.FootprintInBytes.ShouldBe((h.BucketCount + 1) * 4L);
    }

    [Fact]
    public void ValuesOutsideTheRange_GoToTheOverflowCounterNeverAnException()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();

        h.Record(0);
        h.Record(9_000);
        h.Record(40_000);
        h.Record(ulong.MaxValue, 5);
        h.Record(20_000);

        h.OverflowCount.ShouldBe(8UL);
        h.TotalCount.ShouldBe(1UL);
        h.GetPercentileValue(0).ShouldBe(h.GetPercentileValue(100));
    }

    [Fact]
    public void TrackableBounds_AreGuaranteedToTheBucketEdgeNotBeyond()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();
        var layout = h.Layout;
        ulong firstStart = layout.GetBucketStart(layout.GetLogicalIndexForValue(10_000));
        ulong lastEnd = layout.GetBucketHighestValue(layout.GetLogicalIndexForValue(30_000));

        h.Record(firstStart);
        h.Record(lastEnd);
        h.OverflowCount.ShouldBe(0UL);

        h.Record(firstStart - 1);
        h.Record(lastEnd + 1);
        h.OverflowCount.ShouldBe(2UL);
    }

    [Fact]
    public void RecordWithCount_AddsToTheBucket()
    {
        var h = HdrHistogram.Factory.WithUInt32Storage().Create();
        h.Record(100, 3);
        h.Record(100);
        h.Record(5_000, 0);

        h.TotalCount.ShouldBe(4UL);
        h.GetPercentile(100).Bucket.Count.ShouldBe(4UL);
    }

    [Fact]
    public void RecordWithCountAbove32Bits_On32BitStorage_ThrowsWithTheRemedy()
    {
        var h = HdrHistogram.Factory.WithUInt32Storage().Create();

        var ex = Should.Throw<ArgumentOutOfRangeException>(() => h.Record(1, (ulong)uint.MaxValue + 1));
        ex.Message.ShouldContain("WithUInt64Storage()");
        h.TotalCount.ShouldBe(0UL);
    }

    [Fact]
    public void RecordWithLargeCount_On64BitStorage_IsKept()
    {
        var h = HdrHistogram.Factory.Create();
        h.Record(1, 1UL << 40);
        h.Record(2, 1UL << 40);

        h.TotalCount.ShouldBe(1UL << 41);
        h.GetPercentileValue(50).ShouldBe(1UL);
        h.GetPercentileValue(50.0001).ShouldBe(2UL);
    }

    [Fact]
    public void MinAboveMax_FailsAtCreateWithBothValuesAndTheRemedy()
    {
        var ex = Should.Throw<ArgumentException>(() =>
            HdrHistogram.Factory.WithMinTrackableValue(30_000).WithMaxTrackableValue(10_000).Create());

        ex.Message.ShouldContain("30,000");
        ex.Message.ShouldContain("10,000");
        ex.Message.ShouldContain("swap them");
    }

    [Fact]
    public void MinEqualToMax_IsASingleBucketHistogram()
    {
        var h = HdrHistogram.Factory.WithMinTrackableValue(1_000).WithMaxTrackableValue(1_000).Create();
        h.BucketCount.ShouldBe(1);
        h.Record(1_000);
        h.Record(2_000);
        h.TotalCount.ShouldBe(1UL);
        h.OverflowCount.ShouldBe(1UL);
    }

    [Fact]
    public void Reset_ClearsCountsAndOverflowAndCountsResets()
    {
        var h = HdrHistogram.Factory.WithMaxTrackableValue(1_000).Create();
        h.Record(10);
        h.Record(10_000);

        h.Reset();

        h.TotalCount.ShouldBe(0UL);
        h.OverflowCount.ShouldBe(0UL);
        h.ResetCount.ShouldBe(1L);
        h.BucketsWithValues.ShouldBeEmpty();
    }

    [Fact]
    public void Builder_IsImmutableAndReusable()
    {
        var coarse = HdrHistogram.Factory.WithRelativeError(0.1);
        var fine = coarse.WithRelativeError(0.0001);

        coarse.Create().Layout.BlockSize.ShouldBe(8);
        fine.Create().Layout.BlockSize.ShouldBe(8_192);
        coarse.UInt64Storage.ShouldBeTrue();
        coarse.WithUInt32Storage().WithUInt64Storage().Create().CounterSize.ShouldBe(8);
    }

    [Fact]
    public void Buckets_EnumerateEveryStoredBucketInValueOrder()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.1).WithMaxTrackableValue(100).Create();
        h.Record(3);
        h.Record(50, 2);

        HdrBucket[] all = h.Buckets.ToArray();
        all.Length.ShouldBe(h.BucketCount);
        all.Select(b => b.Start).ShouldBe(all.Select(b => b.Start).Order());
        all.Sum(b => (long)b.Count).ShouldBe(3);

        HdrBucket[] withValues = h.BucketsWithValues.ToArray();
        withValues.Length.ShouldBe(2);
        withValues[0].Start.ShouldBe(3UL);
        withValues[1].Count.ShouldBe(2UL);
        (50UL - withValues[1].Start).ShouldBeLessThan(withValues[1].Step);
    }

    [Fact]
    public void BucketPercentiles_RankEachBucketAtItsMiddle()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.1).Create();
        h.Record(1, 2);
        h.Record(2, 6);
        h.Record(3, 2);

        Percentile[] ranked = h.BucketPercentilesWithValues.ToArray();
        ranked.Select(p => p.Rank).ShouldBe([10.0, 50.0, 90.0]);
        ranked.Select(p => p.CountAtRank).ShouldBe([2UL, 8UL, 10UL]);
        h.BucketPercentiles.Count().ShouldBe(h.BucketCount);
    }
}
