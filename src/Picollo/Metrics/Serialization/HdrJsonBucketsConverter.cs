using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// Reads and writes the buckets as one JSON object, <c>{ "19968": 183827, "20224": 105814 }</c>, keyed by
/// the bucket start in decimal. A dictionary would do neither job: its enumeration order is an
/// implementation detail (the output must be sorted to diff well) and it cannot report a bad key or a
/// duplicate while the reader still knows the line and byte position.
/// </summary>
/// <remarks>
/// Checks here are syntactic only (decimal keys, whole counts, no duplicates): whether a key is a bucket
/// start of the layout depends on <c>relativeError</c>, which may come later in a hand-edited file.
/// </remarks>
internal sealed class HdrJsonBucketsConverter : JsonConverter<IReadOnlyList<HdrJsonBucket>>
{
    // ulong.MaxValue has 20 digits.
    private const int MaxKeyLength = 20;

    public override IReadOnlyList<HdrJsonBucket> Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new JsonException(HistogramFormatMessages.BucketsNotAnObject());
        }

        var buckets = new List<HdrJsonBucket>();
        var seen = new HashSet<ulong>();
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            string key = reader.GetString()!;
            if (!TryParseCanonical(key, out ulong start))
            {
                throw new JsonException(HistogramFormatMessages.BucketKeyNotANumber(key));
            }

            if (!seen.Add(start))
            {
                throw new JsonException(string.Create(
                    CultureInfo.InvariantCulture,
                    $"The bucket \"{key}\" appears twice: each bucket start may appear once; add the counts into one entry."));
            }

            reader.Read();
            if (reader.TokenType != JsonTokenType.Number || !reader.TryGetUInt64(out ulong count))
            {
                throw new JsonException(string.Create(
                    CultureInfo.InvariantCulture,
                    $"The count of bucket \"{key}\" is not a whole number in [0, 18446744073709551615]."));
            }

            buckets.Add(new HdrJsonBucket(start, count));
        }

        // The loop only stops on EndObject here: the reader has already rejected any other token
        // after a value inside an object.
        return buckets;
    }

    public override void Write(Utf8JsonWriter writer, IReadOnlyList<HdrJsonBucket> value, JsonSerializerOptions options)
    {
        Span<byte> key = stackalloc byte[MaxKeyLength];
        writer.WriteStartObject();
        foreach (HdrJsonBucket bucket in value)
        {
            bucket.Start.TryFormat(key, out int written, default, CultureInfo.InvariantCulture);
            writer.WriteNumber(key[..written], bucket.Count);
        }

        writer.WriteEndObject();
    }

    // One spelling per value: "019968" or "+19968" would let two keys name the same bucket.
    private static bool TryParseCanonical(string key, out ulong value) =>
        ulong.TryParse(key, NumberStyles.None, CultureInfo.InvariantCulture, out value) &&
        (key.Length == 1 || key[0] != '0');
}
