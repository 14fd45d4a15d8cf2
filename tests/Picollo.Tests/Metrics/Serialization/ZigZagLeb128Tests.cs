extern alias HdrNet;

using Picollo.Metrics.Serialization;
using Shouldly;
using Xunit;
using ByteBuffer = HdrNet::HdrHistogram.Utilities.ByteBuffer;
using ZigZagEncoding = HdrNet::HdrHistogram.ZigZagEncoding;

namespace Picollo.Tests.Metrics.Serialization;

public sealed class ZigZagLeb128Tests
{
    public static TheoryData<long, byte[]> Encodings => new()
    {
        { 0, [0x00] },
        { 1, [0x02] },
        { -1, [0x01] },
        { -2, [0x03] },
        { 63, [0x7E] },
        { -64, [0x7F] },
        { 64, [0x80, 0x01] },
        { 300, [0xD8, 0x04] },
        // 2^55 − 1 zigzags to 2^56 − 2: the largest magnitude that still fits 8 seven-bit groups.
        { (1L << 55) - 1, [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] },
        // 2^55 zigzags to 2^56: eight empty groups with the continuation bit, then the ninth byte whole.
        { 1L << 55, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01] },
        { long.MaxValue, [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] },
        { long.MinValue, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] },
    };

    [Theory]
    [MemberData(nameof(Encodings))]
    public void Write_ProducesTheDocumentedBytes(long value, byte[] expected)
    {
        byte[] buffer = new byte[ZigZagLeb128.MaxLength];

        int written = ZigZagLeb128.Write(value, buffer);

        buffer[..written].ShouldBe(expected);
    }

    [Theory]
    [MemberData(nameof(Encodings))]
    public void TryRead_ReturnsTheValueAndItsLength(long expected, byte[] encoded)
    {
        byte[] followedByGarbage = [.. encoded, 0xAB, 0xCD];

        ZigZagLeb128.TryRead(followedByGarbage, out long value, out int bytesRead).ShouldBeTrue();

        value.ShouldBe(expected);
        bytesRead.ShouldBe(encoded.Length);
    }

    [Fact]
    public void RandomValuesOfEveryMagnitude_RoundTripAndMatchHdrHistogramNet()
    {
        var random = new Random(7);
        byte[] ours = new byte[ZigZagLeb128.MaxLength];
        for (int i = 0; i < 10_000; i++)
        {
            // Every bit width from 0 to 64, both signs.
            long value = random.NextInt64() >> random.Next(64);
            if ((i & 1) != 0)
                value = ~value;

            int written = ZigZagLeb128.Write(value, ours);
            ZigZagLeb128.TryRead(ours.AsSpan(0, written), out long read, out int bytesRead).ShouldBeTrue();
            read.ShouldBe(value);
            bytesRead.ShouldBe(written);

            ByteBuffer theirs = ByteBuffer.Allocate(16);
            ZigZagEncoding.PutLong(theirs, value);
            theirs.Position.ShouldBe(written);
            theirs.Position = 0;
            for (int b = 0; b < written; b++)
                theirs.Get().ShouldBe(ours[b]);
        }
    }

    [Theory]
    [InlineData(new byte[0])]
    [InlineData(new byte[] { 0x80 })]
    [InlineData(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF })]
    public void TryRead_TruncatedValue_ReturnsFalse(byte[] truncated) =>
        ZigZagLeb128.TryRead(truncated, out _, out _).ShouldBeFalse();
}
