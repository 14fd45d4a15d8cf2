using System.Numerics;
using System.Runtime.CompilerServices;

namespace Picollo.Metrics;

/// <summary>
/// The logical log-linear bucket layout of an HDR histogram over the whole <see cref="ulong"/> range.
/// </summary>
/// <remarks>
/// <para>
/// The value space is cut into blocks of <see cref="BlockSize"/> buckets. Block 0 holds the values
/// [0, BlockSize) and block 1 the values [BlockSize, 2·BlockSize), both with a step of 1, so the
/// first 2·BlockSize values are exact. Every later block <c>k</c> covers
/// [BlockSize·2^(k-1), BlockSize·2^k) with a step of 2^(k-1): the range and the step double together,
/// so the worst relative error of a bucket's midpoint stays 0.5 / BlockSize.
/// </para>
/// <para>
/// A layout is a pure function of the requested relative error; it stores nothing but three integers,
/// which is what lets histograms with the same precision be compared, merged and serialized bucket by bucket.
/// With BlockSize = S / 2 this is exactly HdrHistogram's layout for a sub-bucket count S.
/// </para>
/// </remarks>
public readonly struct HdrBuckets : IEquatable<HdrBuckets>
{
    /// <summary>The relative error used when none (or a non-positive one) is given: 0.1%.</summary>
    public const double DefaultRelativeError = 0.001;

    /// <summary>The finest relative error a layout accepts; finer requests are clamped to it.</summary>
    public const double MinRelativeError = 0.000_001;

    /// <summary>The coarsest relative error a layout accepts; coarser requests are clamped to it.</summary>
    public const double MaxRelativeError = 0.1;

    /// <summary>Number of buckets in one block: ⌊0.5 / relative error⌋ rounded up to a power of two.</summary>
    public int BlockSize { get; }

    /// <summary>log2(<see cref="BlockSize"/>): shifting by it divides by the block size.</summary>
    public int BlockScale { get; }

    /// <summary>Number of blocks needed to cover [0, <see cref="ulong.MaxValue"/>]: 1 + 64 − <see cref="BlockScale"/>.</summary>
    public int BlockCount { get; }

    /// <summary>
    /// Creates the layout for a relative error, clamped to [<see cref="MinRelativeError"/>, <see cref="MaxRelativeError"/>];
    /// zero, negative and NaN requests mean <see cref="DefaultRelativeError"/>.
    /// </summary>
    /// <param name="relativeError">The largest tolerated |midpoint − value| / value.</param>
    public HdrBuckets(double relativeError = DefaultRelativeError)
    {
        relativeError = ClampRelativeError(relativeError);

        // 0.5 / relErr: the first inexact bucket is [2B, 2B + 2) and its midpoint is off by at most
        // 1 for values ≥ 2B, i.e. 1 / (2B) = 0.5 / B. The quotient is truncated, then rounded up to a
        // power of two so indexing is shifts and masks; RelativeError reports the effective bound.
        BlockSize = (int)BitOperations.RoundUpToPowerOf2((uint)(0.5 / relativeError));
        BlockScale = BitOperations.TrailingZeroCount(BlockSize);
        BlockCount = 1 + 64 - BlockScale;
    }

    /// <summary>The worst relative error of a bucket's midpoint in this layout: 0.5 / <see cref="BlockSize"/>.</summary>
    public double RelativeError => 0.5 / BlockSize;

    /// <summary>Number of logical buckets covering the whole <see cref="ulong"/> range.</summary>
    public int LogicalLength => BlockSize * BlockCount;

    /// <summary>Applies the clamping rules of the constructor to a requested relative error.</summary>
    /// <param name="relativeError">The requested relative error.</param>
    /// <returns>The relative error the layout will be built for (before power-of-two rounding).</returns>
    public static double ClampRelativeError(double relativeError)
    {
        if (!(relativeError > 0))
            return DefaultRelativeError; // also catches NaN
        return Math.Clamp(relativeError, MinRelativeError, MaxRelativeError);
    }

    /// <summary>Gets the logical (unclipped) index of the bucket that holds <paramref name="value"/>.</summary>
    /// <param name="value">Any value.</param>
    /// <returns>An index in [0, <see cref="LogicalLength"/>), monotonic in <paramref name="value"/>.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public nuint GetLogicalIndexForValue(ulong value) => GetLogicalIndexForValue(value, BlockScale);

    /// <summary>
    /// <see cref="GetLogicalIndexForValue(ulong)"/> for a layout known only by its block scale: recording
    /// handles keep the scale in a register instead of a layout (see <see cref="HdrHistogramWriter"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static nuint GetLogicalIndexForValue(ulong value, int blockScale)
    {
        // Block k > 0 starts at BlockSize·2^(k-1) with step 2^(k-1), and blocks 0 and 1 both have step
        // 2^0, so the step scale is s = max(k - 1, 0) = ⌊log2(value / BlockSize)⌋ (Log2(0) is 0: block 0).
        // value >> s is then in [BlockSize, 2·BlockSize) for k > 0, i.e. BlockSize plus the position in
        // the block, and is the value itself for k = 0: the index k·BlockSize + position is therefore
        // s·BlockSize + (value >> s), with no mask and no correction for block 0.
        int stepScale = BitOperations.Log2(value >> blockScale);
        // s ≤ 63 - blockScale and blockScale ≤ 19, so s·BlockSize fits 32 bits. The 32-bit shift also
        // keeps the JIT from sharing one masked count (blockScale & 63) between two 64-bit shifts,
        // which costs a mov and an and per value where it cannot hoist them.
        return (nuint)((uint)stepScale << blockScale) + (nuint)(value >> stepScale);
    }

    /// <summary>Gets the smallest value that falls into the bucket with logical index <paramref name="logicalIndex"/>.</summary>
    /// <param name="logicalIndex">A logical index in [0, <see cref="LogicalLength"/>).</param>
    /// <returns>The inclusive lower bound of the bucket.</returns>
    public ulong GetBucketStart(nuint logicalIndex)
    {
        int blockIndex = (int)(logicalIndex >> BlockScale);
        ulong indexInBlock = logicalIndex & (nuint)(BlockSize - 1);
        // Inverse of GetLogicalIndexForValue: blocks k > 0 start at BlockSize << (k - 1), and the
        // subtracted BlockSize comes back before shifting by the step scale.
        ulong blockBase = blockIndex != 0 ? (ulong)BlockSize : 0;
        return (blockBase + indexInBlock) << GetStepScale(blockIndex);
    }

    /// <summary>Gets the width of the bucket with logical index <paramref name="logicalIndex"/> (a power of two).</summary>
    /// <param name="logicalIndex">A logical index in [0, <see cref="LogicalLength"/>).</param>
    /// <returns>The number of distinct values the bucket covers.</returns>
    public ulong GetBucketStep(nuint logicalIndex) => 1UL << GetStepScale((int)(logicalIndex >> BlockScale));

    /// <summary>Gets the midpoint of a bucket: start + step / 2, the value that minimizes the worst relative error.</summary>
    /// <param name="logicalIndex">A logical index in [0, <see cref="LogicalLength"/>).</param>
    /// <returns>The bucket's midpoint; equal to the start for unit-width buckets.</returns>
    public ulong GetBucketMidpoint(nuint logicalIndex) => GetBucketStart(logicalIndex) + (GetBucketStep(logicalIndex) >> 1);

    /// <summary>Gets the largest value that falls into a bucket: start + step − 1 (its exclusive end may be 2^64).</summary>
    /// <param name="logicalIndex">A logical index in [0, <see cref="LogicalLength"/>).</param>
    /// <returns>The inclusive upper bound of the bucket.</returns>
    public ulong GetBucketHighestValue(nuint logicalIndex) => GetBucketStart(logicalIndex) + (GetBucketStep(logicalIndex) - 1);

    private static int GetStepScale(int blockIndex) => blockIndex - (blockIndex != 0 ? 1 : 0);

    /// <inheritdoc />
    public bool Equals(HdrBuckets other) => BlockSize == other.BlockSize;

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is HdrBuckets other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => BlockSize;

    /// <summary>Layouts are equal when their block sizes are.</summary>
    /// <param name="left">The first layout.</param>
    /// <param name="right">The second layout.</param>
    /// <returns><see langword="true"/> when both describe the same buckets.</returns>
    public static bool operator ==(HdrBuckets left, HdrBuckets right) => left.Equals(right);

    /// <summary>Layouts differ when their block sizes do.</summary>
    /// <param name="left">The first layout.</param>
    /// <param name="right">The second layout.</param>
    /// <returns><see langword="true"/> when the layouts describe different buckets.</returns>
    public static bool operator !=(HdrBuckets left, HdrBuckets right) => !left.Equals(right);

    /// <inheritdoc />
    public override string ToString() =>
        $"HdrBuckets(BlockSize={BlockSize}, BlockCount={BlockCount}, RelativeError={RelativeError:G6})";
}
