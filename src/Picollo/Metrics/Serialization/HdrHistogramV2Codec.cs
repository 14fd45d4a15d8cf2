using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.IO.Compression;
using System.Numerics;
using Picollo.Text;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// HdrHistogram's compressed V2 encoding, as base64 (the form of HdrHistogram log files).
/// </summary>
/// <remarks>
/// Every integer is big-endian. Envelope: int32 cookie 0x1c849314, int32 length of the compressed bytes,
/// then a zlib (RFC 1950) stream of the encoding. Encoding: a 40-byte header (int32 cookie 0x1c849313,
/// int32 payload length, int32 normalizingIndexOffset, int32 numberOfSignificantValueDigits, int64
/// lowestDiscernibleValue, int64 highestTrackableValue, float64 integerToDoubleValueConversionRatio),
/// then the counts from index 0 to the last non-zero one as <see cref="ZigZagLeb128"/> varints, where a
/// run of k ≥ 2 empty buckets is the single value −k.
/// </remarks>
internal static class HdrHistogramV2Codec
{
    // Base cookies | 0x10: the word-size nibble of V2 always says "ZigZag LEB128 varints".
    private const int CompressedCookie = 0x1c849304 | 0x10;
    private const int EncodingCookie = 0x1c849303 | 0x10;
    private const int EnvelopeLength = 8;
    private const int HeaderLength = 40;

    // The payload is read in chunks so that a corrupt length field cannot allocate gigabytes up front.
    private const int PayloadChunkLength = 64 * 1024;

    public static string Encode(HdrHistogram histogram)
    {
        var layout = HdrHistogramV2Layout.ForBlockSize(histogram.Layout.BlockSize);
        var payload = new ArrayBufferWriter<byte>();
        ulong largestValue = WriteCounts(histogram, layout, payload);

        // HdrHistogram needs highestTrackableValue ≥ 2·lowestDiscernibleValue, and the counts array it
        // allocates on decode must reach the last encoded bucket.
        long highestTrackableValue = (long)Math.Max(Math.Max(Math.Min(histogram.MaxTrackableValue, long.MaxValue), largestValue), 2);
        return Envelope(layout, payload, highestTrackableValue);
    }

    // The counts in HdrHistogram's layout, in the V2 counts encoding, into payload; returns the largest value written. Values above
    // long.MaxValue cannot be written: the format stores signed 64-bit values.
    private static ulong WriteCounts(HdrHistogram histogram, HdrHistogramV2Layout layout, ArrayBufferWriter<byte> payload)
    {
        HdrBuckets buckets = histogram.Layout;
        ulong largestValue = 0;
        UInt128 countsAboveLongMax = 0;

        ulong[] counts = ArrayPool<ulong>.Shared.Rent(histogram.BucketCount);
        try
        {
            histogram.CopyCounts(counts);
            var writer = new HdrHistogramV2CountsWriter(payload);
            for (int i = 0; i < histogram.BucketCount; i++)
            {
                ulong count = counts[i];
                if (count == 0)
                    continue;

                nuint logicalIndex = (nuint)(i + histogram.FirstLogicalIndex);
                if (buckets.GetBucketStart(logicalIndex) > long.MaxValue)
                {
                    countsAboveLongMax += count;
                    continue;
                }

                // Both layouts cut the values at powers of two, so the midpoint's HdrHistogram bucket is
                // this very bucket (S = 2·BlockSize), one inside it (finer), or the one containing it
                // (coarser, block sizes above 2^17: neighbours merge).
                largestValue = buckets.GetBucketMidpoint(logicalIndex);
                writer.Add(layout.GetCountsIndex(largestValue), count);
            }

            writer.Flush();
        }
        finally
        {
            ArrayPool<ulong>.Shared.Return(counts);
        }

        if (countsAboveLongMax != 0)
        {
            throw new InvalidOperationException(HistogramFormatMessages.ValuesAboveLongMax(countsAboveLongMax));
        }

        return largestValue;
    }

    // The V2 header and the payload, zlib-compressed inside the compressed-histogram envelope, as base64.
    private static string Envelope(HdrHistogramV2Layout layout, ArrayBufferWriter<byte> payload, long highestTrackableValue)
    {
        Span<byte> header = stackalloc byte[HeaderLength];
        BinaryPrimitives.WriteInt32BigEndian(header, EncodingCookie);
        BinaryPrimitives.WriteInt32BigEndian(header[4..], payload.WrittenCount);
        BinaryPrimitives.WriteInt32BigEndian(header[8..], 0); // normalizingIndexOffset: counts are not shifted
        BinaryPrimitives.WriteInt32BigEndian(header[12..], layout.SignificantDigits);
        BinaryPrimitives.WriteInt64BigEndian(header[16..], 1); // lowestDiscernibleValue: unit magnitude 0
        BinaryPrimitives.WriteInt64BigEndian(header[24..], highestTrackableValue);
        BinaryPrimitives.WriteDoubleBigEndian(header[32..], 1.0); // integerToDoubleValueConversionRatio

        using var output = new MemoryStream();
        output.Write(stackalloc byte[EnvelopeLength]); // cookie and length, filled in once the length is known
        using (var zlib = new ZLibStream(output, CompressionLevel.Optimal, leaveOpen: true))
        {
            zlib.Write(header);
            zlib.Write(payload.WrittenSpan);
        }

        Span<byte> envelope = output.GetBuffer().AsSpan(0, (int)output.Length);
        BinaryPrimitives.WriteInt32BigEndian(envelope, CompressedCookie);
        BinaryPrimitives.WriteInt32BigEndian(envelope[4..], envelope.Length - EnvelopeLength);
        return Convert.ToBase64String(envelope);
    }

    public static HdrHistogram Decode(string base64)
    {
        ArgumentNullException.ThrowIfNull(base64);
        byte[] bytes;
        try
        {
            bytes = Convert.FromBase64String(base64);
        }
        catch (FormatException ex)
        {
            throw Invalid($"the text is not base64 ({Sentences.Unended(ex.Message)}).", ex);
        }

        if (bytes.Length < EnvelopeLength)
            throw Invalid(HistogramFormatMessages.TruncatedEnvelope(bytes.Length, EnvelopeLength));

        int cookie = BinaryPrimitives.ReadInt32BigEndian(bytes);
        if (cookie != CompressedCookie)
            throw Invalid(DescribeWrongCookie(cookie));

        int compressedLength = BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(4));
        int available = bytes.Length - EnvelopeLength;
        if (compressedLength <= 0 || compressedLength > available)
            throw Invalid(HistogramFormatMessages.CompressedLengthMismatch(compressedLength, available));

        Span<byte> header = stackalloc byte[HeaderLength];
        HdrHistogramV2Layout layout;
        long highestTrackableValue;
        byte[] payload;
        try
        {
            using var zlib = new ZLibStream(
                new MemoryStream(bytes, EnvelopeLength, compressedLength, writable: false), CompressionMode.Decompress);
            int read = zlib.ReadAtLeast(header, HeaderLength, throwOnEndOfStream: false);
            if (read < HeaderLength)
                throw Invalid(HistogramFormatMessages.TruncatedHeader(read, HeaderLength));

            (int payloadLength, layout, highestTrackableValue) = ReadHeader(header);
            payload = ReadPayload(zlib, payloadLength);
        }
        catch (InvalidDataException ex)
        {
            throw Invalid($"the compressed bytes are not a valid zlib stream ({Sentences.Unended(ex.Message)}).", ex);
        }

        List<(ulong Value, ulong Count)> entries = ReadCounts(payload, layout);

        // BlockSize = S / 2 is the same layout (for 0 digits, S = 2, the coarsest layout, BlockSize 8, is
        // finer still), so every count keeps its bucket. The range is the source's, not the whole ulong
        // range: at 5 digits that is the difference between a few MB and 50 MB.
        var buckets = new HdrBuckets(1.0 / layout.SubBucketCount);
        ulong maxTrackableValue = Math.Max((ulong)highestTrackableValue, entries.Count == 0 ? 0 : entries[^1].Value);
        var histogram = new HdrHistogram(buckets, 0, maxTrackableValue, uint64Storage: true, HdrConcurrency.SingleWriter);
        foreach ((ulong value, ulong count) in entries)
            histogram.Record(value, count);
        return histogram;
    }

    // integerToDoubleValueConversionRatio is not checked: it only scales the values of DoubleHistograms.
    private static (int PayloadLength, HdrHistogramV2Layout Layout, long HighestTrackableValue) ReadHeader(ReadOnlySpan<byte> header)
    {
        int cookie = BinaryPrimitives.ReadInt32BigEndian(header);
        if (cookie != EncodingCookie)
        {
            throw Invalid(HistogramFormatMessages.NotAV2Encoding(cookie, EncodingCookie));
        }

        int payloadLength = BinaryPrimitives.ReadInt32BigEndian(header[4..]);
        int normalizingIndexOffset = BinaryPrimitives.ReadInt32BigEndian(header[8..]);
        int digits = BinaryPrimitives.ReadInt32BigEndian(header[12..]);
        long lowest = BinaryPrimitives.ReadInt64BigEndian(header[16..]);
        long highest = BinaryPrimitives.ReadInt64BigEndian(header[24..]);
        if (payloadLength < 0)
            throw Invalid(HistogramFormatMessages.NegativePayloadLength(payloadLength));
        if (normalizingIndexOffset != 0)
            throw Invalid(HistogramFormatMessages.ShiftedV2Histogram(normalizingIndexOffset));
        if (digits is < 0 or > HdrHistogramV2Layout.MaxSignificantDigits)
            throw Invalid(HistogramFormatMessages.DigitsOutOfRange(digits, HdrHistogramV2Layout.MaxSignificantDigits));
        if (lowest < 1)
            throw Invalid(HistogramFormatMessages.LowestBelowOne(lowest));
        if (highest / 2 < lowest) // highest ≥ 2·lowest without overflowing
            throw Invalid(HistogramFormatMessages.HighestBelowTwiceLowest(highest, lowest));

        // unitMagnitude = ⌊log2 lowestDiscernibleValue⌋: values are counted in units of 2^unitMagnitude.
        return (payloadLength, new HdrHistogramV2Layout(digits, BitOperations.Log2((ulong)lowest)), highest);
    }

    private static byte[] ReadPayload(Stream zlib, int payloadLength)
    {
        if (payloadLength == 0)
            return [];

        // HdrHistogram.NET compresses its whole scratch buffer, so zeros (and no zlib checksum) may follow
        // the payload: read exactly the announced length, never to the end of the stream.
        var payload = new ArrayBufferWriter<byte>(Math.Min(payloadLength, PayloadChunkLength));
        while (payload.WrittenCount < payloadLength)
        {
            int chunk = Math.Min(PayloadChunkLength, payloadLength - payload.WrittenCount);
            int read = zlib.Read(payload.GetSpan(chunk)[..chunk]);
            if (read == 0)
            {
                throw Invalid(HistogramFormatMessages.TruncatedPayload(payloadLength, payload.WrittenCount));
            }

            payload.Advance(read);
        }

        return payload.WrittenSpan.ToArray();
    }

    private static List<(ulong Value, ulong Count)> ReadCounts(ReadOnlySpan<byte> payload, HdrHistogramV2Layout layout)
    {
        var entries = new List<(ulong Value, ulong Count)>();
        long index = 0;
        int position = 0;
        while (position < payload.Length)
        {
            if (!ZigZagLeb128.TryRead(payload[position..], out long count, out int length))
            {
                throw Invalid(string.Create(
                    CultureInfo.InvariantCulture,
                    $"the payload ends inside a count at byte {position} of {payload.Length}: it is truncated."));
            }

            if (count < 0)
            {
                // −count empty buckets; comparing before adding keeps index from overflowing.
                if (count == long.MinValue || -count > layout.MaxCountsIndex + 1 - index)
                    throw BeyondValueRange(index, position);
                index -= count;
            }
            else
            {
                if (count != 0)
                {
                    if (!layout.TryGetLowestValue(index, out ulong value))
                        throw BeyondValueRange(index, position);
                    entries.Add((value, (ulong)count));
                }

                index++;
            }

            position += length;
        }

        return entries;
    }

    private static HdrHistogramFormatException BeyondValueRange(long index, int position) =>
        Invalid(HistogramFormatMessages.CountsBeyondValueRange(index, position));

    private static string DescribeWrongCookie(int cookie)
    {
        string kind = cookie switch
        {
            EncodingCookie => "an uncompressed V2 encoding; only the compressed form (cookie 0x1c849314) is read",
            0x0c72124e or 0x0c72124f => "a DoubleHistogram, which is not supported",
            _ when (cookie & ~0xf0) is 0x1c849301 or 0x1c849302 or 0x1c849308 or 0x1c849309 =>
                "an older V0/V1 encoding, which is not supported; re-encode it with a current HdrHistogram",
            _ => "not an HdrHistogram cookie",
        };
        return string.Create(
            CultureInfo.InvariantCulture,
            $"it starts with cookie 0x{cookie:x8} instead of 0x{CompressedCookie:x8}: {kind}.");
    }

    private static HdrHistogramFormatException Invalid(string problem, Exception? innerException = null) =>
        new(HistogramFormatMessages.InvalidV2(problem), innerException);
}
