extern alias HdrNet;

using System.Buffers.Binary;
using System.IO.Compression;
using Picollo.Metrics;
using Shouldly;
using Xunit;
using ByteBuffer = HdrNet::HdrHistogram.Utilities.ByteBuffer;
using HistogramBase = HdrNet::HdrHistogram.HistogramBase;
using HistogramEncoding = HdrNet::HdrHistogram.HistogramEncoding;
using HistogramIterationValue = HdrNet::HdrHistogram.Iteration.HistogramIterationValue;
using LongHistogram = HdrNet::HdrHistogram.LongHistogram;

namespace Picollo.Tests.Metrics;

// The HdrHistogram.NET package declares a namespace HdrHistogram, which global lookup finds before
// the type imported by a top-level using.
using HdrHistogram = Picollo.Metrics.HdrHistogram;

public sealed class HdrHistogramV2Tests
{
    private static readonly double[] Ranks = [0, 1, 10, 25, 50, 75, 90, 99, 99.5, 99.9, 99.99, 100];

    // HdrHistogram rounds a rank's position rank / 100 · total to nearest, we round it up: with 10,000
    // values they agree where the product is an integer in doubles. Not for 99.9: 99.9 / 100 · 10000 is
    // 9990.000000000002, the 9991st value for us and the 9990th for HdrHistogram.
    private static readonly double[] RanksAtIntegerPositions = [0, 1, 10, 25, 50, 75, 90, 99, 99.5, 99.99, 100];

    [Theory]
    [InlineData(0.0005, 3, true)] // BlockSize 1024 = 2048 / 2: index for index
    [InlineData(0.01, 2, false)] // BlockSize 64 < 256 / 2: each bucket lands in the finer bucket of its midpoint
    [InlineData(0.1, 1, false)] // BlockSize 8 < 32 / 2
    public void PicolloEncoding_DecodedByHdrHistogramNet_HasOurCountsAndPercentiles(double relativeError, int digits, bool sameLayout)
    {
        var histogram = HdrHistogram.Factory.WithRelativeError(relativeError).Create();
        ulong[] values = RecordRandom(histogram, count: 20_000, seed: 1);
        histogram.Record(long.MaxValue, 3);
        histogram.Record(0, 2);

        HistogramBase theirs = DecodeWithHdrHistogramNet(histogram.ToHdrHistogramV2Base64());

        theirs.NumberOfSignificantValueDigits.ShouldBe(digits);
        theirs.HighestTrackableValue.ShouldBe(long.MaxValue);
        ((ulong)theirs.TotalCount).ShouldBe(histogram.TotalCount);
        foreach (HdrBucket bucket in histogram.BucketsWithValues)
            ((ulong)theirs.GetCountAtValue((long)bucket.Midpoint)).ShouldBe(bucket.Count, $"bucket {bucket}");
        if (sameLayout)
        {
            Dictionary<ulong, ulong> counts = Counts(histogram);
            foreach (ulong value in values)
                ((ulong)theirs.GetCountAtValue((long)value)).ShouldBe(counts[StartOfBucketOf(histogram, value)], $"value {value}");
        }

        foreach (double rank in Ranks)
        {
            // HdrHistogram rounds the rank's position to nearest, we round it up: the two may pick
            // adjacent buckets, so agreement is within our bucket width around our midpoint.
            Percentile ours = histogram.GetPercentile(rank);
            long theirValue = theirs.GetValueAtPercentile(rank);
            Math.Abs((double)theirValue - ours.Value).ShouldBeLessThanOrEqualTo(2.0 * ours.Bucket.Step, $"P{rank}: ours {ours}, theirs {theirValue}");
        }
    }

    [Theory]
    [InlineData(1, 3)]
    [InlineData(1, 2)]
    [InlineData(1000, 2)] // lowestDiscernibleValue 1000: unit magnitude 9, buckets of 512 at the bottom
    public void HdrHistogramNetEncoding_DecodesIntoTheSameBucketsAndPercentiles(long lowestDiscernibleValue, int digits)
    {
        // HdrHistogram.NET 2.5.0 sizes equivalent-value ranges with a 32-bit shift, so past 2^37 (at 2 digits)
        // its max, percentiles and the encoder's length of the counts array go wrong and the top buckets
        // are not encoded: the values stay below that. 9,995 + 5 values make every rank's position an
        // integer (see RanksAtIntegerPositions).
        var theirs = new LongHistogram(lowestDiscernibleValue, 3_600_000_000_000L, digits);
        var random = new Random(2);
        for (int i = 0; i < 9_995; i++)
            theirs.RecordValue((long)RandomValues.LogUniform(random, 0, 100_000_000_000UL));
        theirs.RecordValueWithCount(100_000_000_000L, 5);

        HdrHistogram ours = HdrHistogram.FromHdrHistogramV2Base64(EncodeWithHdrHistogramNet(theirs));

        ours.Layout.BlockSize.ShouldBe(theirs.SubBucketCount / 2);
        ours.CounterSize.ShouldBe(8);
        ours.MinTrackableValue.ShouldBe(0UL);
        ours.MaxTrackableValue.ShouldBe(3_600_000_000_000UL);
        ours.TotalCount.ShouldBe(10_000UL);
        ours.TotalCount.ShouldBe((ulong)theirs.TotalCount);
        ours.OverflowCount.ShouldBe(0UL);
        List<HistogramIterationValue> recorded = [.. theirs.RecordedValues()];
        Dictionary<ulong, ulong> counts = Counts(ours);
        counts.Count.ShouldBe(recorded.Count);
        foreach (HistogramIterationValue bucket in recorded)
        {
            // Each count sits at the lowest value of its HdrHistogram bucket.
            ulong lowest = (ulong)theirs.LowestEquivalentValue(bucket.ValueIteratedTo);
            counts.GetValueOrDefault(StartOfBucketOf(ours, lowest)).ShouldBe((ulong)bucket.CountAtValueIteratedTo, $"bucket of {lowest}");
        }

        if (lowestDiscernibleValue == 1)
        {
            // Same layout and the same ranks: the same buckets, and HdrHistogram reports their highest value.
            foreach (double rank in RanksAtIntegerPositions)
                ours.GetPercentileValue(rank, EquivalentValueSelection.Upper).ShouldBe((ulong)theirs.GetValueAtPercentile(rank), $"P{rank}");
        }
    }

    [Theory]
    [InlineData(0.1)]
    [InlineData(0.03)]
    [InlineData(0.01)]
    [InlineData(0.001)]
    [InlineData(0.0005)]
    [InlineData(0.0001)]
    [InlineData(0.00003)]
    [InlineData(0.000_003_814_697_265_625)] // BlockSize 2^17: 5 digits, index for index
    public void RoundTrip_PreservesEveryBucketCount(double relativeError)
    {
        var histogram = HdrHistogram.Factory.WithRelativeError(relativeError).WithMaxTrackableValue(1UL << 32).Create();
        RecordRandom(histogram, count: 20_000, seed: 3, max: 1UL << 32);

        HdrHistogram copy = HdrHistogram.FromHdrHistogramV2Base64(histogram.ToHdrHistogramV2Base64());

        copy.Layout.BlockSize.ShouldBeGreaterThanOrEqualTo(histogram.Layout.BlockSize);
        Regroup(copy, histogram.Layout).ShouldBe(Counts(histogram));
        if (copy.Layout == histogram.Layout)
            copy.Buckets.Where(b => b.Count != 0).ShouldBe(histogram.Buckets.Where(b => b.Count != 0));
    }

    [Theory]
    [InlineData(0.000_002)]
    [InlineData(0.000_001)]
    public void BlockSizeAbove2To17_IsMergedIntoFiveDigitBuckets(double relativeError)
    {
        var histogram = HdrHistogram.Factory.WithRelativeError(relativeError)
            .WithMinTrackableValue(1UL << 30).WithMaxTrackableValue(1UL << 31).Create();
        RecordRandom(histogram, count: 20_000, seed: 4, min: 1UL << 30, max: 1UL << 31);

        HdrHistogram copy = HdrHistogram.FromHdrHistogramV2Base64(histogram.ToHdrHistogramV2Base64());

        copy.RelativeError.ShouldBe(1.0 / 262_144);
        copy.TotalCount.ShouldBe(histogram.TotalCount);
        // Every original bucket's count is in the coarser bucket that holds its midpoint.
        Dictionary<ulong, ulong> expected = histogram.BucketsWithValues
            .GroupBy(b => copy.Layout.GetBucketStart(copy.Layout.GetLogicalIndexForValue(b.Midpoint)))
            .ToDictionary(g => g.Key, g => g.Aggregate(0UL, (sum, b) => sum + b.Count));
        copy.BucketsWithValues.ToDictionary(b => b.Start, b => b.Count).ShouldBe(expected);
    }

    [Fact]
    public void Encoding_StartsWithTheLogFileMagic()
    {
        var histogram = HdrHistogram.Factory.Create();
        histogram.Record(42);

        histogram.ToHdrHistogramV2Base64().ShouldStartWith("HISTF");
    }

    [Fact]
    public void EmptyHistogram_RoundTripsThroughBothDecoders()
    {
        string base64 = HdrHistogram.Factory.Create().ToHdrHistogramV2Base64();

        DecodeWithHdrHistogramNet(base64).TotalCount.ShouldBe(0);
        HdrHistogram.FromHdrHistogramV2Base64(base64).TotalCount.ShouldBe(0UL);
    }

    [Fact]
    public void OverflowAndMinTrackableValue_AreNotExported()
    {
        var histogram = HdrHistogram.Factory.WithMinTrackableValue(1_000).WithMaxTrackableValue(100_000).Create();
        histogram.Record(5_000, 7);
        histogram.Record(10);
        histogram.Record(1_000_000);

        HdrHistogram copy = HdrHistogram.FromHdrHistogramV2Base64(histogram.ToHdrHistogramV2Base64());

        copy.TotalCount.ShouldBe(7UL);
        copy.OverflowCount.ShouldBe(0UL);
        copy.MinTrackableValue.ShouldBe(0UL);
        copy.MaxTrackableValue.ShouldBe(100_000UL);
    }

    [Fact]
    public void ValuesAboveLongMaxValue_ThrowInvalidOperationExceptionPointingToJson()
    {
        var histogram = HdrHistogram.Factory.Create();
        histogram.Record(long.MaxValue);
        histogram.Record(1UL << 63, 5);
        histogram.Record(ulong.MaxValue, 2_000);

        InvalidOperationException ex = Should.Throw<InvalidOperationException>(histogram.ToHdrHistogramV2Base64);

        ex.Message.ShouldContain("2,005 recorded values are above long.MaxValue");
        ex.Message.ShouldContain("use ToJson()");
    }

    [Theory]
    [InlineData("not base64!", "the text is not base64")]
    [InlineData("HISTFA==", "it holds 4 bytes, fewer than the 8-byte envelope")]
    [InlineData("AAAAAQAAAAA=", "it starts with cookie 0x00000001 instead of 0x1c849314: not an HdrHistogram cookie")]
    [InlineData("HISTEwAAAAA=", "cookie 0x1c849313 instead of 0x1c849314: an uncompressed V2 encoding")]
    [InlineData("HISTAgAAAAA=", "an older V0/V1 encoding, which is not supported")]
    [InlineData("DHISTwAAAAA=", "a DoubleHistogram, which is not supported")]
    [InlineData("HISTFAAAAAA=", "the envelope announces 0 compressed bytes but 0 follow")]
    [InlineData("HISTFAAAAAMBAgM=", "the compressed bytes are not a valid zlib stream")]
    public void BadEnvelope_ThrowsFormatExceptionSayingWhatIsWrong(string base64, string expected)
    {
        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromHdrHistogramV2Base64(base64));

        ex.ShouldBeAssignableTo<FormatException>();
        ex.Message.ShouldStartWith("Invalid HdrHistogram V2 data: ");
        ex.Message.ShouldContain(expected);
        ex.Message.ShouldContain("as in an HdrHistogram log line (it starts with \"HISTF\")");
    }

    [Fact]
    public void TruncatedBase64_ThrowsFormatExceptionSayingTruncated()
    {
        var histogram = HdrHistogram.Factory.Create();
        RecordRandom(histogram, count: 1_000, seed: 5);
        byte[] bytes = Convert.FromBase64String(histogram.ToHdrHistogramV2Base64());
        string truncated = Convert.ToBase64String(bytes[..^5]);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromHdrHistogramV2Base64(truncated));

        ex.Message.ShouldContain($"the envelope announces {bytes.Length - 8} compressed bytes but {bytes.Length - 13} follow: it is truncated");
    }

    [Theory]
    [InlineData(0x1c849313, 3, 0, 3, 1, 100, new byte[] { 2 }, "the header announces a 3-byte payload but the compressed data ends after 1: it is truncated")]
    [InlineData(0x1c849313, 1, 0, 3, 1, 100, new byte[] { 0x80 }, "the payload ends inside a count at byte 0 of 1: it is truncated")]
    [InlineData(0x1c849323, 1, 0, 3, 1, 100, new byte[] { 2 }, "the compressed data starts with cookie 0x1c849323, not 0x1c849313 of a V2 histogram encoding")]
    [InlineData(0x1c849313, 1, 5, 3, 1, 100, new byte[] { 2 }, "normalizingIndexOffset is 5; only 0 is supported")]
    [InlineData(0x1c849313, 1, 0, 6, 1, 100, new byte[] { 2 }, "numberOfSignificantValueDigits is 6; HdrHistogram allows 0 to 5")]
    [InlineData(0x1c849313, 1, 0, 3, 0, 100, new byte[] { 2 }, "lowestDiscernibleValue is 0; it must be at least 1")]
    [InlineData(0x1c849313, 1, 0, 3, 100, 150, new byte[] { 2 }, "highestTrackableValue (150) is less than twice lowestDiscernibleValue (100)")]
    [InlineData(0x1c849313, -1, 0, 3, 1, 100, new byte[0], "negative payload length (-1)")]
    [InlineData(0x1c849313, 9, 0, 0, 1, 100, new byte[] { 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02 }, "reach past the largest 64-bit value")]
    public void BadEncoding_ThrowsFormatExceptionSayingWhatIsWrong(
        int cookie, int payloadLength, int normalizingIndexOffset, int digits, long lowest, long highest, byte[] payload, string expected)
    {
        string base64 = Compress(cookie, payloadLength, normalizingIndexOffset, digits, lowest, highest, payload);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromHdrHistogramV2Base64(base64));

        ex.Message.ShouldStartWith("Invalid HdrHistogram V2 data: ");
        ex.Message.ShouldContain(expected);
    }

    [Fact]
    public void TruncatedHeader_ThrowsFormatExceptionSayingTruncated()
    {
        string base64 = Compress(0x1c849313, 0, 0, 3, 1, 100, [])[..24];
        byte[] bytes = Convert.FromBase64String(base64);
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(4), bytes.Length - 8);

        HdrHistogramFormatException ex = Should.Throw<HdrHistogramFormatException>(() => HdrHistogram.FromHdrHistogramV2Base64(Convert.ToBase64String(bytes)));

        ex.Message.ShouldContain("fewer than the 40-byte header: it is truncated");
    }

    [Fact]
    public void NullText_ThrowsArgumentNullException() =>
        Should.Throw<ArgumentNullException>(() => HdrHistogram.FromHdrHistogramV2Base64(null!));

    private static ulong[] RecordRandom(HdrHistogram histogram, int count, int seed, ulong min = 0, ulong max = 1_000_000_000_000)
    {
        var random = new Random(seed);
        ulong[] values = new ulong[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = RandomValues.LogUniform(random, min, max);
            histogram.Record(values[i]);
        }

        return values;
    }

    private static ulong StartOfBucketOf(HdrHistogram histogram, ulong value) =>
        histogram.Layout.GetBucketStart(histogram.Layout.GetLogicalIndexForValue(value));

    private static Dictionary<ulong, ulong> Counts(HdrHistogram histogram) =>
        histogram.BucketsWithValues.ToDictionary(b => b.Start, b => b.Count);

    // Sums the buckets of a (finer or equal) histogram into the buckets of another layout, by start value.
    private static Dictionary<ulong, ulong> Regroup(HdrHistogram histogram, HdrBuckets layout) =>
        histogram.BucketsWithValues
            .GroupBy(b => layout.GetBucketStart(layout.GetLogicalIndexForValue(b.Start)))
            .ToDictionary(g => g.Key, g => g.Aggregate(0UL, (sum, b) => sum + b.Count));

    private static HistogramBase DecodeWithHdrHistogramNet(string base64) =>
        HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(Convert.FromBase64String(base64)), 0);

    private static string EncodeWithHdrHistogramNet(HistogramBase histogram)
    {
        ByteBuffer buffer = ByteBuffer.Allocate(histogram.GetNeededByteBufferCapacity());
        int written = HistogramEncoding.EncodeIntoCompressedByteBuffer(histogram, buffer);

        // ByteBuffer.ToArray is internal: read the written bytes back one by one.
        buffer.Position = 0;
        byte[] bytes = new byte[written];
        for (int i = 0; i < written; i++)
            bytes[i] = buffer.Get();
        return Convert.ToBase64String(bytes);
    }

    // A hand-made compressed V2 histogram, to break one field at a time.
    private static string Compress(int cookie, int payloadLength, int normalizingIndexOffset, int digits, long lowest, long highest, byte[] payload)
    {
        byte[] encoding = new byte[40 + payload.Length];
        BinaryPrimitives.WriteInt32BigEndian(encoding, cookie);
        BinaryPrimitives.WriteInt32BigEndian(encoding.AsSpan(4), payloadLength);
        BinaryPrimitives.WriteInt32BigEndian(encoding.AsSpan(8), normalizingIndexOffset);
        BinaryPrimitives.WriteInt32BigEndian(encoding.AsSpan(12), digits);
        BinaryPrimitives.WriteInt64BigEndian(encoding.AsSpan(16), lowest);
        BinaryPrimitives.WriteInt64BigEndian(encoding.AsSpan(24), highest);
        BinaryPrimitives.WriteDoubleBigEndian(encoding.AsSpan(32), 1.0);
        payload.CopyTo(encoding, 40);

        using var output = new MemoryStream();
        output.Write(new byte[8]);
        using (var zlib = new ZLibStream(output, CompressionLevel.Optimal, leaveOpen: true))
            zlib.Write(encoding);
        byte[] bytes = output.ToArray();
        BinaryPrimitives.WriteInt32BigEndian(bytes, 0x1c849314);
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(4), bytes.Length - 8);
        return Convert.ToBase64String(bytes);
    }
}
