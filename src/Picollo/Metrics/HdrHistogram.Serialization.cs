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

    /// <summary>Reads a histogram written by <see cref="ToJson"/>: same layout, range, storage width, bucket counts and overflow count.</summary>
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

    /// <summary>Reads a histogram from the UTF-8 JSON of <see cref="ToUtf8Json"/> or <see cref="ToJson"/>.</summary>
    /// <param name="utf8Json">The UTF-8 encoded JSON text.</param>
    /// <returns>A new histogram equal to the one that was written.</returns>
    /// <exception cref="HdrHistogramFormatException">The JSON is not a valid histogram; see <see cref="FromJson(string)"/>.</exception>
    public static HdrHistogram FromJson(ReadOnlySpan<byte> utf8Json) => HdrHistogramJsonCodec.Deserialize(utf8Json);

    /// <summary>Adds to the overflow counter directly: deserialization restores it even when every value is trackable.</summary>
    internal void AddOverflowCount(ulong count)
    {
        if (_counts64 is not null)
            _counts64[_length] += count;
        else
            _counts32![_length] += checked((uint)count);
    }
}
