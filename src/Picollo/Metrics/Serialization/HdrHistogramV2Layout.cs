using System.Numerics;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// HdrHistogram's bucket layout for a number of significant digits and a unit magnitude: the index of a
/// value in its counts array, and back.
/// </summary>
/// <remarks>
/// <para>
/// For d significant digits, HdrHistogram keeps the values up to 2·10^d exact, so it needs a sub-bucket
/// count S = 2^⌈log2(2·10^d)⌉ (d = 0…5 → 2, 32, 256, 2048, 32768, 262144); H = S/2. After shifting a
/// value right by the unit magnitude, bucketIndex = max(0, bitwidth(v) − log2 S), subBucketIndex =
/// v &gt;&gt; bucketIndex, and countsIndex = (bucketIndex + 1)·H + (subBucketIndex − H).
/// </para>
/// <para>
/// With unit magnitude 0 this is exactly <see cref="HdrBuckets"/> with BlockSize = H: bucket 0 holds
/// [0, S) with step 1 (Picollo's blocks 0 and 1), and bucket b &gt; 0 holds [H·2^b, H·2^(b+1)) with step
/// 2^b (Picollo's block b + 1). So countsIndex equals Picollo's logical index for every value.
/// </para>
/// </remarks>
internal readonly struct HdrHistogramV2Layout
{
    /// <summary>The most significant digits HdrHistogram supports.</summary>
    public const int MaxSignificantDigits = 5;

    public HdrHistogramV2Layout(int significantDigits, int unitMagnitude)
    {
        SignificantDigits = significantDigits;
        UnitMagnitude = unitMagnitude;

        long largestValueWithSingleUnitResolution = 2;
        for (int i = 0; i < significantDigits; i++)
            largestValueWithSingleUnitResolution *= 10;

        // ⌈log2 x⌉ = ⌊log2(x − 1)⌋ + 1 for x ≥ 2.
        SubBucketCountMagnitude = BitOperations.Log2((ulong)largestValueWithSingleUnitResolution - 1) + 1;
        MaxCountsIndex = GetCountsIndex(ulong.MaxValue);
    }

    public int SignificantDigits { get; }

    /// <summary>log2 of the lowest discernible value: values are shifted right by it before indexing.</summary>
    public int UnitMagnitude { get; }

    /// <summary>log2 S.</summary>
    public int SubBucketCountMagnitude { get; }

    /// <summary>S: the number of sub-buckets in bucket 0 (twice Picollo's block size).</summary>
    public int SubBucketCount => 1 << SubBucketCountMagnitude;

    /// <summary>The counts index of <see cref="ulong.MaxValue"/>: no value has a larger one.</summary>
    public long MaxCountsIndex { get; }

    private int SubBucketHalfCountMagnitude => SubBucketCountMagnitude - 1;

    private long SubBucketHalfCount => 1L << SubBucketHalfCountMagnitude;

    /// <summary>
    /// The coarsest layout at least as fine as Picollo's <paramref name="blockSize"/> (S ≥ 2·BlockSize),
    /// or the finest one HdrHistogram has (5 digits) when the block size is finer than that.
    /// </summary>
    public static HdrHistogramV2Layout ForBlockSize(int blockSize)
    {
        for (int digits = 0; digits < MaxSignificantDigits; digits++)
        {
            var layout = new HdrHistogramV2Layout(digits, unitMagnitude: 0);
            if (layout.SubBucketCount >= 2L * blockSize)
                return layout;
        }

        return new HdrHistogramV2Layout(MaxSignificantDigits, unitMagnitude: 0);
    }

    public long GetCountsIndex(ulong value)
    {
        ulong v = value >> UnitMagnitude;
        int bucketIndex = Math.Max(0, 64 - BitOperations.LeadingZeroCount(v) - SubBucketCountMagnitude);
        long subBucketIndex = (long)(v >> bucketIndex);
        return ((long)(bucketIndex + 1) << SubBucketHalfCountMagnitude) + (subBucketIndex - SubBucketHalfCount);
    }

    /// <summary>
    /// Gets the lowest value of the bucket at <paramref name="countsIndex"/> (unit magnitude applied);
    /// <see langword="false"/> when the index lies beyond <see cref="ulong.MaxValue"/>.
    /// </summary>
    public bool TryGetLowestValue(long countsIndex, out ulong value)
    {
        if (countsIndex < 0 || countsIndex > MaxCountsIndex)
        {
            value = 0;
            return false;
        }

        // Inverse of GetCountsIndex: bucket b ≥ 1 starts at index (b + 1)·H and its sub-bucket indexes
        // run over [H, 2H); indexes below 2H all belong to bucket 0, whose sub-buckets run over [0, 2H).
        int bucketIndex = (int)(countsIndex >> SubBucketHalfCountMagnitude) - 1;
        long subBucketIndex = (countsIndex & (SubBucketHalfCount - 1)) + SubBucketHalfCount;
        if (bucketIndex < 0)
        {
            subBucketIndex -= SubBucketHalfCount;
            bucketIndex = 0;
        }

        // Within MaxCountsIndex the shift cannot push bits past 64.
        value = (ulong)subBucketIndex << (bucketIndex + UnitMagnitude);
        return true;
    }
}
