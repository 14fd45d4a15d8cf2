using System.Globalization;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// The messages of a serialized histogram that cannot be read or written, in one place: what is wrong in its JSON form
/// (with the JSON path) or its HdrHistogram V2 form, and what to do.
/// </summary>
internal static class HistogramFormatMessages
{
    /// <summary>What the JSON form of a histogram is, in place of the serializer's name of its model.</summary>
    internal const string HistogramObject =
        "an object with the fields relativeError, minTrackableValue, maxTrackableValue, storage, overflowCount and buckets";

    private const string JsonAdvice = "Fix the JSON, or write it again with HdrHistogram.ToJson().";

    private const string V2Advice =
        "Pass the base64 text of one compressed HdrHistogram V2 histogram, as in an HdrHistogram log line (it starts with \"HISTF\").";

    /// <summary>Given when the JSON at <paramref name="path"/> is not a valid histogram: <paramref name="problem"/> says why.</summary>
    internal static string InvalidJson(string path, string problem) =>
        string.Create(CultureInfo.InvariantCulture, $"Invalid histogram JSON at {path}: {problem} {JsonAdvice}");

    /// <summary>The problem of a JSON document that is <c>null</c>.</summary>
    internal static string NullDocument() => "the document is null; expected " + HistogramObject + ".";

    /// <summary>
    /// The problem of a <c>relativeError</c>, <paramref name="relativeError"/>, that is no layout's exact error;
    /// <paramref name="nearest"/> is the error of the layout it would pick.
    /// </summary>
    internal static string RelativeErrorNotALayout(double relativeError, double nearest) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{relativeError:R} is not the relative error of a bucket layout: it must be 0.5 / BlockSize for a power-of-two BlockSize " +
            $"from 8 to 524288, i.e. from 0.0625 down to 9.5367431640625E-07 (the nearest is {nearest:R}).");

    /// <summary>
    /// The problem of a bucket key, <paramref name="start"/>, that is not the start of its bucket
    /// [<paramref name="bucketStart"/>, <paramref name="bucketHighest"/>] in the layout.
    /// </summary>
    internal static string BucketKeyNotAStart(ulong start, double relativeError, int blockSize, ulong bucketStart, ulong bucketHighest) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{start} is not the start of a bucket with relative error {relativeError:R} (block size {blockSize}): the bucket holding " +
            $"it is [{bucketStart}, {bucketHighest}]. Key each count by its bucket's start value.");

    /// <summary>
    /// The problem of a bucket, <paramref name="start"/>, outside the trackable range [<paramref name="min"/>,
    /// <paramref name="max"/>], whose buckets start from <paramref name="firstStart"/> to <paramref name="lastStart"/>.
    /// </summary>
    internal static string BucketOutsideRange(ulong start, ulong min, ulong max, ulong firstStart, ulong lastStart) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the bucket {start} is outside the trackable range [{min}, {max}], whose buckets start from {firstStart} to {lastStart}. " +
            $"Widen minTrackableValue/maxTrackableValue, or move the count to overflowCount.");

    /// <summary>Given by the JSON reader when <c>buckets</c> is not an object.</summary>
    internal static string BucketsNotAnObject() =>
        "'buckets' must be an object that maps bucket start values to counts, e.g. \"buckets\": { \"19968\": 183827 }.";

    /// <summary>
    /// Given by the JSON reader when a key of <c>buckets</c>, <paramref name="key"/>, is not a canonical unsigned integer.
    /// </summary>
    internal static string BucketKeyNotANumber(string key) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"The bucket key \"{key}\" is not a bucket start value: keys are unsigned decimal integers up to 18446744073709551615 " +
            $"without sign, spaces or leading zeros, e.g. \"19968\".");

    /// <summary>Given when the V2 data is not a valid histogram: <paramref name="problem"/> says why.</summary>
    internal static string InvalidV2(string problem) =>
        string.Create(CultureInfo.InvariantCulture, $"Invalid HdrHistogram V2 data: {problem} {V2Advice}");

    /// <summary>The problem of V2 data shorter, at <paramref name="length"/> bytes, than its envelope.</summary>
    internal static string TruncatedEnvelope(int length, int envelopeLength) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"it holds {length} bytes, fewer than the {envelopeLength}-byte envelope (cookie, compressed length): it is truncated.");

    /// <summary>
    /// The problem of V2 data whose envelope announces <paramref name="compressedLength"/> compressed bytes when
    /// <paramref name="available"/> follow.
    /// </summary>
    internal static string CompressedLengthMismatch(int compressedLength, int available) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the envelope announces {compressedLength} compressed bytes but {available} follow: it is truncated or corrupt.");

    /// <summary>The problem of V2 compressed data that ends after <paramref name="read"/> bytes, inside its header.</summary>
    internal static string TruncatedHeader(int read, int headerLength) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the compressed data holds {read} bytes, fewer than the {headerLength}-byte header: it is truncated.");

    /// <summary>The problem of a V2 header announcing a negative payload length.</summary>
    internal static string NegativePayloadLength(int payloadLength) =>
        string.Create(CultureInfo.InvariantCulture, $"the header gives a negative payload length ({payloadLength}): it is corrupt.");

    /// <summary>The problem of a V2 header whose numberOfSignificantValueDigits is outside 0 to <paramref name="maxDigits"/>.</summary>
    internal static string DigitsOutOfRange(int digits, int maxDigits) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"numberOfSignificantValueDigits is {digits}; HdrHistogram allows 0 to {maxDigits}: it is corrupt.");

    /// <summary>The problem of a V2 header whose lowestDiscernibleValue is below 1.</summary>
    internal static string LowestBelowOne(long lowest) =>
        string.Create(CultureInfo.InvariantCulture, $"lowestDiscernibleValue is {lowest}; it must be at least 1: it is corrupt.");

    /// <summary>The problem of a V2 header whose highestTrackableValue is less than twice its lowestDiscernibleValue.</summary>
    internal static string HighestBelowTwiceLowest(long highest, long lowest) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"highestTrackableValue ({highest}) is less than twice lowestDiscernibleValue ({lowest}): it is corrupt.");

    /// <summary>The problem of a V2 payload that ends after <paramref name="read"/> of its announced bytes.</summary>
    internal static string TruncatedPayload(int payloadLength, int read) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the header announces a {payloadLength}-byte payload but the compressed data ends after {read}: it is truncated.");

    /// <summary>
    /// The problem of V2 data whose compressed data starts with <paramref name="cookie"/> instead of the V2 encoding's
    /// <paramref name="encodingCookie"/>.
    /// </summary>
    internal static string NotAV2Encoding(int cookie, int encodingCookie) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the compressed data starts with cookie 0x{cookie:x8}, not 0x{encodingCookie:x8} of a V2 histogram encoding: " +
            $"it is corrupt or another kind of histogram (e.g. a DoubleHistogram).");

    /// <summary>The problem of a V2 header with a <c>normalizingIndexOffset</c> other than 0 (a shifted histogram).</summary>
    internal static string ShiftedV2Histogram(int normalizingIndexOffset) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"normalizingIndexOffset is {normalizingIndexOffset}; only 0 is supported (histograms shifted with shiftValuesLeft/Right " +
            $"are not). Re-record or copy the histogram without shifting before encoding it.");

    /// <summary>
    /// The problem of V2 counts that, from payload byte <paramref name="position"/>, reach past the largest 64-bit value.
    /// </summary>
    internal static string CountsBeyondValueRange(long index, int position) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"the counts at payload byte {position} (counts index {index} and on) reach past the largest 64-bit value: it is corrupt.");

    /// <summary>
    /// Given when a histogram to encode in V2 holds <paramref name="count"/> values above long.MaxValue, which the format
    /// cannot represent.
    /// </summary>
    internal static string ValuesAboveLongMax(UInt128 count) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{count:N0} recorded values are above long.MaxValue (9,223,372,036,854,775,807), which the HdrHistogram V2 format " +
            $"cannot represent: use ToJson(), which covers the whole ulong range.");

    /// <summary>Given when one bucket of a histogram to encode in V2 holds more values than a V2 counter can.</summary>
    internal static string BucketCountAboveLongMax() =>
        "A bucket holds more than long.MaxValue (9,223,372,036,854,775,807) values, which the counters of the HdrHistogram V2 " +
        "format cannot represent: use ToJson().";
}
