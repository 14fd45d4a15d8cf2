using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrBucketsTests
{
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
    }
}
