using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrBucketsTests
{
    public static TheoryData<double> RelativeErrors => [0.1, 0.05, 0.01, 0.001, 0.0005, 0.0001, 0.00001, 0.000_001];

    [Theory]
    [InlineData(0.1, 8)]
    [InlineData(0.01, 64)]
    [InlineData(0.001, 512)]
    [InlineData(0.0005, 1024)]
    [InlineData(0.000_001, 524_288)]
    public void RelativeError_BlockSizeIsTruncatedQuotientRoundedUpToPowerOfTwo(double relativeError, int blockSize)
    {
        var layout = new HdrBuckets(relativeError);

        layout.BlockSize.ShouldBe(blockSize);
        (1 << layout.BlockScale).ShouldBe(blockSize);
        layout.BlockCount.ShouldBe(1 + 64 - layout.BlockScale);
        layout.RelativeError.ShouldBe(0.5 / blockSize);
        layout.RelativeError.ShouldBeLessThanOrEqualTo(relativeError);
    }

    [Theory]
    [InlineData(0.0, 0.001)]
    [InlineData(-1.0, 0.001)]
    [InlineData(double.NaN, 0.001)]
    [InlineData(1e-12, 0.000_001)]
    [InlineData(0.5, 0.1)]
    [InlineData(double.PositiveInfinity, 0.1)]
    public void OutOfRangeRelativeError_IsClampedAsTheArticleDefines(double requested, double clamped)
    {
        HdrBuckets.ClampRelativeError(requested).ShouldBe(clamped);
        new HdrBuckets(requested).ShouldBe(new HdrBuckets(clamped));
    }

    [Theory]
    [MemberData(nameof(RelativeErrors))]
    public void EveryValue_LiesInItsBucketAndTheMidpointIsWithinTheRelativeError(double relativeError)
    {
        var layout = new HdrBuckets(relativeError);
        foreach (ulong value in InterestingValues(layout))
        {
            nuint index = layout.GetLogicalIndexForValue(value);
            index.ShouldBeLessThan((nuint)layout.LogicalLength);

            ulong start = layout.GetBucketStart(index);
            ulong step = layout.GetBucketStep(index);
            value.ShouldBeGreaterThanOrEqualTo(start, $"value {value}");
            (value - start).ShouldBeLessThan(step, $"value {value} in [{start}, {start}+{step})");
            ulong.IsPow2(step).ShouldBeTrue();

            // The start of a bucket maps back to the same bucket: the inverse is exact.
            layout.GetLogicalIndexForValue(start).ShouldBe(index);
            layout.GetLogicalIndexForValue(layout.GetBucketHighestValue(index)).ShouldBe(index);

            if (value != 0)
            {
                double error = Math.Abs((double)layout.GetBucketMidpoint(index) - value) / value;
                error.ShouldBeLessThanOrEqualTo(layout.RelativeError * (1 + 1e-12), $"value {value}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(RelativeErrors))]
    public void Indexes_AreMonotonicAndContiguousAcrossTheWholeRange(double relativeError)
    {
        var layout = new HdrBuckets(relativeError);
        ulong[] values = InterestingValues(layout).Order().Distinct().ToArray();
        for (int i = 1; i < values.Length; i++)
            layout.GetLogicalIndexForValue(values[i]).ShouldBeGreaterThanOrEqualTo(layout.GetLogicalIndexForValue(values[i - 1]));

        // Consecutive buckets tile the line: each one starts where the previous one ends.
        int blockSize = layout.BlockSize;
        foreach (int block in new[] { 0, 1, 2, layout.BlockCount / 2, layout.BlockCount - 1 })
        {
            for (int offset = 0; offset < blockSize; offset += Math.Max(1, blockSize / 16))
            {
                nuint index = (nuint)(block * blockSize + offset);
                if (index == 0 || index >= (nuint)layout.LogicalLength)
                    continue;
                (layout.GetBucketStart(index - 1) + layout.GetBucketStep(index - 1)).ShouldBe(layout.GetBucketStart(index));
            }
        }
    }

    [Fact]
    public void Extremes_MapToTheFirstAndLastLogicalBuckets()
    {
        var layout = new HdrBuckets(0.01);
        layout.GetLogicalIndexForValue(0).ShouldBe((nuint)0);
        layout.GetLogicalIndexForValue(ulong.MaxValue).ShouldBe((nuint)(layout.LogicalLength - 1));

        nuint last = (nuint)(layout.LogicalLength - 1);
        layout.GetBucketHighestValue(last).ShouldBe(ulong.MaxValue);
        layout.GetBucketStart(layout.GetLogicalIndexForValue(1UL << 63)).ShouldBe(1UL << 63);
    }

    [Fact]
    public void FirstTwoBlocks_AreExact()
    {
        var layout = new HdrBuckets(0.01);
        for (ulong v = 0; v < (ulong)(2 * layout.BlockSize); v++)
        {
            nuint index = layout.GetLogicalIndexForValue(v);
            index.ShouldBe((nuint)v);
            layout.GetBucketStep(index).ShouldBe(1UL);
            layout.GetBucketMidpoint(index).ShouldBe(v);
        }
    }

    [Fact]
    public void ArticleBucket_HasTheArticleBoundsAndIndex()
    {
        // "P99=24,960 [83 / 609]: [24,832, 25,088)" at 1% relative error.
        var layout = new HdrBuckets(0.01);
        nuint index = layout.GetLogicalIndexForValue(24_900);

        index.ShouldBe((nuint)609);
        layout.GetBucketStart(index).ShouldBe(24_832UL);
        layout.GetBucketStep(index).ShouldBe(256UL);
        layout.GetBucketMidpoint(index).ShouldBe(24_960UL);
        (index - layout.GetLogicalIndexForValue(10_000)).ShouldBe((nuint)83);
    }

    private static IEnumerable<ulong> InterestingValues(HdrBuckets layout)
    {
        ulong b = (ulong)layout.BlockSize;
        ulong[] fixedValues = [0, 1, 2, b - 1, b, b + 1, 2 * b - 1, 2 * b, 2 * b + 1, 3 * b, 4 * b - 1, 4 * b,
            1_000, 30_000, 7_716_549_600, long.MaxValue, (1UL << 63) - 1, 1UL << 63, (1UL << 63) + 1, ulong.MaxValue - 1, ulong.MaxValue];
        foreach (ulong v in fixedValues)
            yield return v;

        // Both sides of every power of two: the block boundaries of the layout.
        for (int shift = 0; shift < 64; shift++)
        {
            ulong p = 1UL << shift;
            yield return p - 1;
            yield return p;
            yield return p + 1;
        }

        var random = new Random(7);
        for (int i = 0; i < 2_000; i++)
            yield return (ulong)random.NextInt64() >> random.Next(0, 63) | (ulong)random.Next(0, 2) << 63;
    }
}
