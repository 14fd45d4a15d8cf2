using System.Text.Json;
using Picollo.Metrics.Serialization;

namespace Picollo.Metrics;

public sealed partial class HdrHistogram
{
    /// <summary>
    /// Writes the histogram as indented JSON that round-trips exactly through <see cref="FromJson(string)"/>:
    /// the layout, the trackable range, the storage width, the overflow count and only the non-empty buckets,
    /// one per line in ascending order, keyed by their start value.
    /// </summary>
    /// <returns>
    /// For example (with "\n" line ends on every OS):
    /// <code>
    /// {
    ///   "relativeError": 0.0009765625,
    ///   "minTrackableValue": 0,
    ///   "maxTrackableValue": 18446744073709551615,
    ///   "storage": "uint64",
    ///   "overflowCount": 0,
    ///   "buckets": {
    ///     "19968": 183827,
    ///     "20224": 105814
    ///   }
    /// }
    /// </code>
    /// </returns>
    /// <remarks>
    /// The counts come from one consistent copy (see <see cref="Reset"/>). Values and counts are written
    /// in full up to <see cref="ulong.MaxValue"/>; JSON readers that parse numbers as doubles (JavaScript)
    /// lose precision above 2^53.
    /// </remarks>
    public string ToJson() =>
        JsonSerializer.Serialize(HdrHistogramJsonCodec.ToModel(this), HdrHistogramJsonContext.Default.HdrHistogramJsonModel);

    /// <summary>Writes the JSON of <see cref="ToJson"/> as UTF-8 bytes, for files and streams.</summary>
    /// <returns>The UTF-8 encoded JSON, without a byte order mark.</returns>
    public byte[] ToUtf8Json() =>
        JsonSerializer.SerializeToUtf8Bytes(HdrHistogramJsonCodec.ToModel(this), HdrHistogramJsonContext.Default.HdrHistogramJsonModel);

    /// <summary>
    /// Reads a histogram written by <see cref="ToJson"/>: same layout, range, storage width, bucket counts and overflow count.
    /// </summary>
    /// <param name="json">The JSON text.</param>
    /// <returns>A new histogram equal to the one that was written.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="json"/> is <see langword="null"/>.</exception>
    /// <exception cref="HdrHistogramFormatException">
    /// The JSON is malformed, a field is missing or has the wrong type, the relative error is not one of a
    /// layout, min &gt; max, a bucket key is not a bucket start of the layout or lies outside the trackable
    /// range, a key appears twice, or a count does not fit 32-bit storage. The message gives the JSON path
    /// (and line and byte for syntax and type errors) and the fix.
    /// </exception>
    public static HdrHistogram FromJson(string json) => HdrHistogramJsonCodec.Deserialize(json);

    /// <summary>
    /// Reads a histogram from the UTF-8 JSON of <see cref="ToUtf8Json"/> or <see cref="ToJson"/>; a leading byte order mark is skipped.
    /// </summary>
    /// <param name="utf8Json">The UTF-8 encoded JSON text.</param>
    /// <returns>A new histogram equal to the one that was written.</returns>
    /// <exception cref="HdrHistogramFormatException">The JSON is not a valid histogram; see <see cref="FromJson(string)"/>.</exception>
    public static HdrHistogram FromJson(ReadOnlySpan<byte> utf8Json) => HdrHistogramJsonCodec.Deserialize(utf8Json);

    /// <summary>
    /// Encodes the histogram in HdrHistogram's compressed V2 format, as base64: the form HdrHistogram log
    /// files hold, readable by HdrHistogram tools in Java, .NET and other ports (e.g. HdrHistogram.NET's
    /// <c>HistogramEncoding.DecodeFromCompressedByteBuffer</c>).
    /// </summary>
    /// <returns>The base64 text (it starts with "HISTF").</returns>
    /// <remarks>
    /// <para>
    /// A layout with block size B is HdrHistogram's layout with 2B sub-buckets. The encoding uses the fewest
    /// significant digits (1 to 5) whose sub-bucket count is at least 2B: equal (B = 16, 128, 1024, 16384,
    /// 131072) maps bucket to bucket; finer puts each bucket's count in the HdrHistogram bucket of its
    /// midpoint, inside the same range of values. Relative errors below 1/262144 ≈ 3.8e-6 (B above 131072)
    /// are finer than HdrHistogram's 5 digits: adjacent buckets are merged and the precision drops to
    /// relative error 1/262144.
    /// </para>
    /// <para>
    /// Not exported, as the format has no place for them: the overflow count, the min trackable value
    /// (lowestDiscernibleValue is 1) and the storage width. highestTrackableValue is the max trackable
    /// value, clamped to <see cref="long.MaxValue"/> and raised to the largest value written.
    /// </para>
    /// </remarks>
    /// <exception cref="InvalidOperationException">
    /// Values above <see cref="long.MaxValue"/> were recorded (the format holds 63-bit values), or one
    /// bucket holds more than <see cref="long.MaxValue"/> values. Use <see cref="ToJson"/> instead.
    /// </exception>
    public string ToHdrHistogramV2Base64() => HdrHistogramV2Codec.Encode(this);

    /// <summary>
    /// Decodes a histogram from HdrHistogram's compressed V2 base64 (one line of an HdrHistogram log file,
    /// or <see cref="ToHdrHistogramV2Base64"/>'s output), without loss.
    /// </summary>
    /// <param name="base64">The base64 text of one compressed V2 histogram.</param>
    /// <returns>
    /// A histogram with 64-bit storage, the source's layout (relative error 1/S for S sub-buckets, so every
    /// count keeps its bucket), tracking [0, highestTrackableValue]; each count is recorded at the lowest
    /// value of its HdrHistogram bucket. A lowestDiscernibleValue above 1 is honoured.
    /// </returns>
    /// <exception cref="ArgumentNullException"><paramref name="base64"/> is <see langword="null"/>.</exception>
    /// <exception cref="HdrHistogramFormatException">
    /// The text is not base64, a cookie is wrong (another encoding or histogram kind), the data is truncated
    /// or not zlib, a header field is out of range (significant digits above 5, a non-zero
    /// normalizingIndexOffset), or the counts reach past the 64-bit value range.
    /// </exception>
    public static HdrHistogram FromHdrHistogramV2Base64(string base64) => HdrHistogramV2Codec.Decode(base64);

    /// <summary>Adds to the overflow counter directly: deserialization restores it even when every value is trackable.</summary>
    internal void AddOverflowCount(ulong count)
    {
        if (_counts64 is not null)
            _counts64[_length] += count;
        else
            _counts32![_length] += checked((uint)count);
    }
}
