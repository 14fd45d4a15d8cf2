using System.Buffers;
using System.Globalization;

namespace Picollo.Metrics;

public sealed partial class HdrHistogram
{
    /// <summary>
    /// Computes several percentiles from one consistent copy of the counters, so they never contradict each other.
    /// </summary>
    /// <param name="ranks">Percentile ranks in [0, 100], any order (ascending is fastest).</param>
    /// <param name="destination">Receives one <see cref="Percentile"/> per rank; at least as long as <paramref name="ranks"/>.</param>
    /// <param name="selection">
    /// Which value of the bucket to report; <see langword="null"/> for <see cref="Percentile.DefaultEquivalentValueSelection"/>.
    /// </param>
    /// <remarks>An empty histogram yields value 0 and <see cref="Percentile.CountAtRank"/> 0 for every rank.</remarks>
    /// <exception cref="ArgumentException">A rank is NaN, or <paramref name="destination"/> is too short.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A rank is below 0 or above 100.</exception>
    public void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> destination, EquivalentValueSelection? selection = null)
    {
        ValidateRanks(ranks, destination.Length);
        ulong[] scratch = ArrayPool<ulong>.Shared.Rent((int)_length);
        try
        {
            HdrCounts counts = ReadCounts(scratch);
            counts.GetPercentiles(ranks, destination, selection ?? Percentile.DefaultEquivalentValueSelection, counts.Total());
        }
        finally
        {
            ArrayPool<ulong>.Shared.Return(scratch);
        }
    }

    /// <summary>Computes the values of several percentiles from one consistent copy of the counters.</summary>
    /// <param name="ranks">Percentile ranks in [0, 100].</param>
    /// <param name="destination">Receives one value per rank; at least as long as <paramref name="ranks"/>.</param>
    /// <param name="selection">Which value of the bucket to report; <see langword="null"/> for the default.</param>
    /// <exception cref="ArgumentException">A rank is NaN, or <paramref name="destination"/> is too short.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A rank is below 0 or above 100.</exception>
    public void GetPercentileValues(ReadOnlySpan<double> ranks, Span<ulong> destination, EquivalentValueSelection? selection = null)
    {
        ValidateRanks(ranks, destination.Length);
        Percentile[] percentiles = ArrayPool<Percentile>.Shared.Rent(ranks.Length);
        try
        {
            GetPercentiles(ranks, percentiles, selection);
            for (int i = 0; i < ranks.Length; i++)
                destination[i] = percentiles[i].Value;
        }
        finally
        {
            ArrayPool<Percentile>.Shared.Return(percentiles);
        }
    }

    /// <summary>
    /// Computes one percentile. Calls the batch method with one rank, so it is not faster; two calls
    /// may see different data while a writer records.
    /// </summary>
    /// <param name="rank">A percentile rank in [0, 100].</param>
    /// <param name="selection">Which value of the bucket to report; <see langword="null"/> for the default.</param>
    /// <returns>The percentile and its bucket.</returns>
    /// <exception cref="ArgumentException">The rank is NaN.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The rank is below 0 or above 100.</exception>
    public Percentile GetPercentile(double rank, EquivalentValueSelection? selection = null)
    {
        Percentile result = default;
        GetPercentiles(new ReadOnlySpan<double>(in rank), new Span<Percentile>(ref result), selection);
        return result;
    }

    /// <summary>Computes the value of one percentile (see <see cref="GetPercentile"/>).</summary>
    /// <param name="rank">A percentile rank in [0, 100].</param>
    /// <param name="selection">Which value of the bucket to report; <see langword="null"/> for the default.</param>
    /// <returns>The equivalent value of the percentile's bucket; 0 for an empty histogram.</returns>
    /// <exception cref="ArgumentException">The rank is NaN.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The rank is below 0 or above 100.</exception>
    public ulong GetPercentileValue(double rank, EquivalentValueSelection? selection = null) =>
        GetPercentile(rank, selection).Value;

    /// <summary>Every stored bucket in value order, empty ones included, from one consistent copy taken when enumeration starts.</summary>
    public IEnumerable<HdrBucket> Buckets => EnumerateBuckets(withValuesOnly: false);

    /// <summary>The buckets that hold at least one value, in value order.</summary>
    public IEnumerable<HdrBucket> BucketsWithValues => EnumerateBuckets(withValuesOnly: true);

    /// <summary>
    /// Every stored bucket as a percentile whose rank sits at the bucket's middle: (values below + count / 2) / total.
    /// </summary>
    public IEnumerable<Percentile> BucketPercentiles => EnumerateBucketPercentiles(withValuesOnly: false);

    /// <summary>The non-empty buckets as percentiles ranked at their middle (see <see cref="BucketPercentiles"/>).</summary>
    public IEnumerable<Percentile> BucketPercentilesWithValues => EnumerateBucketPercentiles(withValuesOnly: true);

    private IEnumerable<HdrBucket> EnumerateBuckets(bool withValuesOnly)
    {
        ulong[] copy = new ulong[_length];
        CopyCounts(copy);
        for (int i = 0; i < copy.Length; i++)
        {
            if (!withValuesOnly || copy[i] != 0)
                yield return new HdrCounts(_layout, (int)_firstIndex, copy, 0).GetBucket(i);
        }
    }

    private IEnumerable<Percentile> EnumerateBucketPercentiles(bool withValuesOnly)
    {
        ulong[] copy = new ulong[_length];
        CopyCounts(copy);
        ulong total = new HdrCounts(_layout, (int)_firstIndex, copy, 0).Total();
        EquivalentValueSelection selection = Percentile.DefaultEquivalentValueSelection;
        ulong below = 0;
        for (int i = 0; i < copy.Length; i++)
        {
            ulong count = copy[i];
            if (!withValuesOnly || count != 0)
            {
                double rank = total == 0 ? 0 : (below + count / 2.0) / total * 100;
                HdrBucket bucket = new HdrCounts(_layout, (int)_firstIndex, copy, 0).GetBucket(i);
                yield return new Percentile(rank, bucket.GetEquivalentValue(selection), below + count, bucket);
            }

            below += count;
        }
    }

    private HdrCounts ReadCounts(ulong[] scratch)
    {
        ulong overflow = CopyCounts(scratch);
        return new HdrCounts(_layout, (int)_firstIndex, scratch.AsSpan(0, (int)_length), overflow);
    }

    /// <summary>Checks ranks for NaN and [0, 100], and that the destination has room for them.</summary>
    internal static void ValidateRanks(ReadOnlySpan<double> ranks, int destinationLength)
    {
        if (destinationLength < ranks.Length)
        {
#pragma warning disable CA2208 // the public callers all name their span parameter "destination"
            throw new ArgumentException(
                string.Create(
                    CultureInfo.InvariantCulture, $"The destination holds {destinationLength} items but {ranks.Length} ranks were given."),
                "destination");
#pragma warning restore CA2208
        }

        foreach (double rank in ranks)
        {
            if (double.IsNaN(rank))
                throw new ArgumentException("A percentile rank is NaN: ranks are numbers in [0, 100].", nameof(ranks));
            if (rank is < 0 or > 100)
                throw new ArgumentOutOfRangeException(nameof(ranks), rank, "Percentile ranks are in [0, 100], e.g. 99.9 for P99.9.");
        }
    }
}
