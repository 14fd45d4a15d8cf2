using System.Text.Json.Serialization;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// The JSON shape of a histogram. Every member is nullable so that a missing field is reported by the
/// codec with its name and a fix, instead of the serializer's message naming this internal type.
/// </summary>
internal sealed class HdrHistogramJsonModel
{
    [JsonPropertyOrder(0)]
    public double? RelativeError { get; set; }

    [JsonPropertyOrder(1)]
    public ulong? MinTrackableValue { get; set; }

    [JsonPropertyOrder(2)]
    public ulong? MaxTrackableValue { get; set; }

    [JsonPropertyOrder(3)]
    public string? Storage { get; set; }

    [JsonPropertyOrder(4)]
    public ulong? OverflowCount { get; set; }

    // Last, so the short layout fields stay at the top of the file and every bucket is one line below.
    [JsonPropertyOrder(5)]
    [JsonConverter(typeof(HdrJsonBucketsConverter))]
    public IReadOnlyList<HdrJsonBucket>? Buckets { get; set; }
}
