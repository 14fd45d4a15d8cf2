using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Text;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// Converts between <see cref="HdrHistogram"/> and its JSON form, and turns every way the JSON can be wrong
/// into an <see cref="HdrHistogramFormatException"/> that says what, where and how to fix it.
/// </summary>
internal static class HdrHistogramJsonCodec
{
    public const string UInt32Storage = "uint32";
    public const string UInt64Storage = "uint64";

    public static HdrHistogramJsonModel ToModel(HdrHistogram histogram)
    {
        ulong[] counts = ArrayPool<ulong>.Shared.Rent(histogram.BucketCount);
        try
        {
            ulong overflow = histogram.CopyCounts(counts);
            HdrBuckets layout = histogram.Layout;
            var buckets = new List<HdrJsonBucket>();
            for (int i = 0; i < histogram.BucketCount; i++)
            {
                if (counts[i] != 0)
                    buckets.Add(new HdrJsonBucket(layout.GetBucketStart((nuint)(i + histogram.FirstLogicalIndex)), counts[i]));
            }

            return new HdrHistogramJsonModel
            {
                RelativeError = histogram.RelativeError,
                MinTrackableValue = histogram.MinTrackableValue,
                MaxTrackableValue = histogram.MaxTrackableValue,
                Storage = histogram.CounterSize == sizeof(uint) ? UInt32Storage : UInt64Storage,
                OverflowCount = overflow,
                Buckets = buckets,
            };
        }
        finally
        {
            ArrayPool<ulong>.Shared.Return(counts);
        }
    }

    public static HdrHistogram Deserialize(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        return Deserialize(Encoding.UTF8.GetBytes(json));
    }

    public static HdrHistogram Deserialize(ReadOnlySpan<byte> utf8Json) =>
        FromModel(JsonReading.Deserialize(utf8Json, HdrHistogramJsonContext.Default.HdrHistogramJsonModel, Malformed));

    // Internal so that files embedding a histogram (baselines) report its errors with their own location.
    internal static HdrHistogram FromModel(HdrHistogramJsonModel? model)
    {
        if (model is null)
            throw Invalid("$", HistogramFormatMessages.NullDocument());

        double relativeError = model.RelativeError ?? throw Missing("relativeError", "0.0009765625");
        ulong min = model.MinTrackableValue ?? throw Missing("minTrackableValue", "0");
        ulong max = model.MaxTrackableValue ?? throw Missing("maxTrackableValue", "18446744073709551615");
        string storage = model.Storage ?? throw Missing("storage", "\"uint64\"");
        ulong overflow = model.OverflowCount ?? throw Missing("overflowCount", "0");
        IReadOnlyList<HdrJsonBucket> buckets = model.Buckets ?? throw Missing("buckets", "{}");

        // Only the exact effective error of a layout is accepted: a rounded value such as 0.001 would
        // still pick a layout (block size 512), but a file that does not name its layout exactly has
        // been edited or produced by something else, and its keys deserve no benefit of the doubt.
        var layout = new HdrBuckets(relativeError);
        if (layout.RelativeError != relativeError)
        {
            throw Invalid("$.relativeError", HistogramFormatMessages.RelativeErrorNotALayout(relativeError, layout.RelativeError));
        }

        if (min > max)
        {
            throw Invalid("$.minTrackableValue", string.Create(
                CultureInfo.InvariantCulture,
                $"minTrackableValue ({min}) is greater than maxTrackableValue ({max}): swap them."));
        }

        bool uint64 = storage switch
        {
            UInt64Storage => true,
            UInt32Storage => false,
            _ => throw Invalid("$.storage", $"\"{storage}\" is not a storage width: use \"{UInt32Storage}\" or \"{UInt64Storage}\"."),
        };

        if (!uint64 && overflow > uint.MaxValue)
            throw CountTooLargeFor32Bit("$.overflowCount", overflow);

        var histogram = new HdrHistogram(layout, min, max, uint64, HdrConcurrency.SingleWriter);
        RecordBuckets(histogram, layout, buckets, min, max, uint64);
        histogram.AddOverflowCount(overflow);
        return histogram;
    }

    // Each bucket's count, recorded once its key is checked: the exact start of a bucket of the layout, within the trackable
    // range, and a count the storage width holds.
    private static void RecordBuckets(
        HdrHistogram histogram, HdrBuckets layout, IReadOnlyList<HdrJsonBucket> buckets, ulong min, ulong max, bool uint64)
    {
        double relativeError = layout.RelativeError;
        nuint firstIndex = (nuint)histogram.FirstLogicalIndex;
        nuint lastIndex = firstIndex + (nuint)histogram.BucketCount - 1;
        foreach (HdrJsonBucket bucket in buckets)
        {
            nuint index = layout.GetLogicalIndexForValue(bucket.Start);
            if (layout.GetBucketStart(index) != bucket.Start)
            {
                throw Invalid(BucketPath(bucket), HistogramFormatMessages.BucketKeyNotAStart(
                    bucket.Start, relativeError, layout.BlockSize, layout.GetBucketStart(index), layout.GetBucketHighestValue(index)));
            }

            if (index < firstIndex || index > lastIndex)
            {
                throw Invalid(BucketPath(bucket), HistogramFormatMessages.BucketOutsideRange(
                    bucket.Start, min, max, layout.GetBucketStart(firstIndex), layout.GetBucketStart(lastIndex)));
            }

            if (!uint64 && bucket.Count > uint.MaxValue)
                throw CountTooLargeFor32Bit(BucketPath(bucket), bucket.Count);

            histogram.Record(bucket.Start, bucket.Count);
        }
    }

    private static string BucketPath(HdrJsonBucket bucket) =>
        string.Create(CultureInfo.InvariantCulture, $"$.buckets['{bucket.Start}']");

    private static HdrHistogramFormatException Malformed(JsonException ex) => new(
        HistogramFormatMessages.InvalidJson(JsonReading.Location(ex), Describe(ex)),
        ex.Path,
        ex.LineNumber,
        ex.BytePositionInLine,
        ex);

    // The serializer's messages name CLR types ("System.Nullable`1[System.UInt64]", this internal model): each becomes
    // what the field must hold.
    private static string Describe(JsonException ex)
    {
        string model = typeof(HdrHistogramJsonModel).FullName!;
        return JsonReading.Detail(ex)
            .Replace($"during deserialization of type '{model}'", "in the histogram object", StringComparison.Ordinal)
            .Replace(model, HistogramFormatMessages.HistogramObject, StringComparison.Ordinal)
            .Replace(typeof(ulong?).ToString(), "a whole number in [0, 18446744073709551615]", StringComparison.Ordinal)
            .Replace(typeof(double?).ToString(), "a number such as 0.0009765625", StringComparison.Ordinal)
            .Replace(typeof(string).ToString(), $"a string, \"{UInt32Storage}\" or \"{UInt64Storage}\"", StringComparison.Ordinal);
    }

    private static HdrHistogramFormatException Missing(string field, string example) =>
        Invalid("$", $"the required field '{field}' is missing or null. Add it, e.g. \"{field}\": {example}.");

    private static HdrHistogramFormatException CountTooLargeFor32Bit(string path, ulong count) =>
        Invalid(path, string.Create(
            CultureInfo.InvariantCulture,
            $"the count {count} does not fit 32-bit storage (at most 4294967295): set \"storage\": \"{UInt64Storage}\"."));

    private static HdrHistogramFormatException Invalid(string path, string problem) =>
        new(HistogramFormatMessages.InvalidJson(path, problem), path, null, null);
}
