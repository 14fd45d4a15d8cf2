namespace Picollo.Metrics.Serialization;

/// <summary>One non-empty bucket of the JSON form: the bucket's start value and its count.</summary>
internal readonly record struct HdrJsonBucket(ulong Start, ulong Count);
