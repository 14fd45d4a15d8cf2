using System.Globalization;

namespace Picollo.Metrics;

/// <summary>One bucket of a histogram: where it sits in the layout, which values it covers and how many it holds.</summary>
/// <param name="StorageIndex">Index in the histogram's trimmed storage (0 = the bucket of the min trackable value).</param>
/// <param name="LogicalIndex">Index in the full <see cref="HdrBuckets"/> layout.</param>
/// <param name="Start">The smallest value of the bucket (inclusive).</param>
/// <param name="Step">The bucket width: a power of two; 1 for the exact buckets below 2·BlockSize.</param>
/// <param name="Count">How many values were recorded into the bucket.</param>
public readonly record struct HdrBucket(int StorageIndex, int LogicalIndex, ulong Start, ulong Step, ulong Count)
{
    /// <summary>start + step / 2: the equivalent value with the smallest worst-case error.</summary>
    public ulong Midpoint => Start + (Step >> 1);

    /// <summary>The largest value of the bucket, start + step − 1 (its exclusive end may be 2^64).</summary>
    public ulong HighestValue => Start + (Step - 1);

    /// <summary>The absolute precision of the midpoint (the ± of the summary tables): step / 2.</summary>
    public ulong HalfWidth => Step >> 1;

    /// <summary>Picks the value that represents the bucket.</summary>
    /// <param name="selection">Which value to pick.</param>
    /// <returns>The midpoint, the start or the highest value of the bucket.</returns>
    public ulong GetEquivalentValue(EquivalentValueSelection selection) => selection switch
    {
        EquivalentValueSelection.Lower => Start,
        EquivalentValueSelection.Upper => HighestValue,
        _ => Midpoint,
    };

    /// <summary>Formats as <c>[start, end) count</c>, with the exclusive end computed without overflow.</summary>
    /// <returns>For example <c>[24,832, 25,088) 14,190</c>.</returns>
    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture,
        $"[{Start:N0}, {(UInt128)Start + Step:N0}) {Count:N0}");
}
