extern alias HdrNet;

using Picollo.Metrics;
using Picollo.Metrics.Serialization;
using Shouldly;
using Xunit;
using LongHistogram = HdrNet::HdrHistogram.LongHistogram;

namespace Picollo.Tests.Metrics.Serialization;

public sealed class HdrHistogramV2LayoutTests
{
    [Theory]
    [InlineData(0, 2)]
    [InlineData(1, 32)]
    [InlineData(2, 256)]
    [InlineData(3, 2048)]
    [InlineData(4, 32768)]
    [InlineData(5, 262144)]
    public void SignificantDigits_GiveHdrHistogramSubBucketCount(int digits, int subBucketCount)
    {
        new HdrHistogramV2Layout(digits, 0).SubBucketCount.ShouldBe(subBucketCount);
        new LongHistogram(1, 1L << 20, digits).SubBucketCount.ShouldBe(subBucketCount);
    }

    [Theory]
    [InlineData(8, 1)]
    [InlineData(16, 1)]
    [InlineData(64, 2)]
    [InlineData(128, 2)]
    [InlineData(512, 3)]
    [InlineData(1024, 3)]
    [InlineData(16384, 4)]
    [InlineData(131072, 5)]
    [InlineData(262144, 5)]
    [InlineData(524288, 5)]
    public void ForBlockSize_PicksTheCoarsestLayoutAtLeastAsFine(int blockSize, int digits) =>
        HdrHistogramV2Layout.ForBlockSize(blockSize).SignificantDigits.ShouldBe(digits);

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(5)]
    public void SameSubBucketCount_CountsIndexIsPicolloLogicalIndex(int digits)
    {
        var layout = new HdrHistogramV2Layout(digits, 0);
        var buckets = new HdrBuckets(1.0 / layout.SubBucketCount);
        buckets.BlockSize.ShouldBe(layout.SubBucketCount / 2);
        var random = new Random(digits);

        foreach (ulong value in Values(random, 64))
        {
            long index = layout.GetCountsIndex(value);
            index.ShouldBe((long)buckets.GetLogicalIndexForValue(value));
            layout.TryGetLowestValue(index, out ulong lowest).ShouldBeTrue();
            lowest.ShouldBe(buckets.GetBucketStart((nuint)index));
        }

        layout.MaxCountsIndex.ShouldBe(buckets.LogicalLength - 1);
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(2, 0)]
    [InlineData(2, 9)]
    [InlineData(3, 0)]
    [InlineData(3, 4)]
    [InlineData(5, 10)]
    public void LowestValueOfIndex_MatchesHdrHistogramNet(int digits, int unitMagnitude)
    {
        var layout = new HdrHistogramV2Layout(digits, unitMagnitude);
        var reference = new LongHistogram(1L << unitMagnitude, 1L << 40, digits);

        foreach (ulong value in Values(new Random(unitMagnitude), 40))
        {
            layout.TryGetLowestValue(layout.GetCountsIndex(value), out ulong lowest).ShouldBeTrue();
            lowest.ShouldBe((ulong)reference.LowestEquivalentValue((long)value), $"value {value}");
        }
    }

    [Fact]
    public void IndexPastUlongMaxValue_HasNoValue()
    {
        var layout = new HdrHistogramV2Layout(3, 0);

        layout.TryGetLowestValue(layout.MaxCountsIndex, out ulong last).ShouldBeTrue();
        last.ShouldBe(ulong.MaxValue - ((1UL << 53) - 1));
        layout.TryGetLowestValue(layout.MaxCountsIndex + 1, out _).ShouldBeFalse();
        layout.TryGetLowestValue(-1, out _).ShouldBeFalse();
    }

    // Values of every bit width up to maxBits, plus the exact edges 0 and 2^maxBits − 1.
    private static IEnumerable<ulong> Values(Random random, int maxBits)
    {
        yield return 0;
        yield return maxBits == 64 ? ulong.MaxValue : (1UL << maxBits) - 1;
        for (int i = 0; i < 5_000; i++)
            yield return (ulong)random.NextInt64() >> (64 - random.Next(1, maxBits + 1));
    }
}
