using System.Globalization;

namespace Picollo.Metrics;

/// <summary>
/// A percentile of a histogram: the rank asked for, the value that answers it, and the bucket it was found in.
/// </summary>
/// <param name="Rank">The percentile rank in [0, 100].</param>
/// <param name="Value">The equivalent value of <see cref="Bucket"/> chosen by the selection in force.</param>
/// <param name="CountAtRank">
/// The position in the sorted data that the rank asks for: ⌈rank / 100 · total⌉, at least 1 (0 when the histogram is empty).
/// </param>
/// <param name="Bucket">The first bucket whose cumulative count reaches <see cref="CountAtRank"/>.</param>
public readonly record struct Percentile(double Rank, ulong Value, ulong CountAtRank, HdrBucket Bucket)
{
    /// <summary>
    /// The selection used by the overloads that take none, and by summaries and bucket listings:
    /// <see cref="EquivalentValueSelection.Midpoint"/>, the smallest worst-case error. Fixed: it was a process-wide setter
    /// that changed every percentile, summaries and baseline statistics included; a caller that wants another
    /// value passes a selection to the call.
    /// </summary>
    public static EquivalentValueSelection DefaultEquivalentValueSelection => EquivalentValueSelection.Midpoint;

    /// <summary>The absolute precision of <see cref="Value"/> as a midpoint: half the bucket width.</summary>
    public ulong HalfWidth => Bucket.HalfWidth;

    /// <summary>Formats a rank like the summary tables do: up to 4 decimals, no trailing zeros.</summary>
    /// <param name="rank">A percentile rank.</param>
    /// <returns>For example <c>99</c>, <c>92.5</c> or <c>9.1914</c>.</returns>
    public static string FormatRank(double rank) => rank.ToString("0.####", CultureInfo.InvariantCulture);

    /// <summary>Formats as <c>P{rank}={value} [{storage index} / {logical index}]: [{start}, {end}) {bucket count}</c>.</summary>
    /// <returns>For example <c>P99=24,960 [83 / 609]: [24,832, 25,088) 14,190</c>.</returns>
    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture,
        $"P{FormatRank(Rank)}={Value:N0} [{Bucket.StorageIndex} / {Bucket.LogicalIndex}]: {Bucket}");
}
