namespace Picollo.Metrics;

/// <summary>
/// A read-only view of one consistent copy of a histogram's counters: every query (percentiles,
/// moments, buckets) runs on it, so they all agree with each other whatever writers do meanwhile.
/// </summary>
internal readonly ref struct HdrCounts
{
    public readonly HdrBuckets Layout;
    public readonly int FirstIndex;
    public readonly ReadOnlySpan<ulong> Counts;
    public readonly ulong Overflow;

    public HdrCounts(HdrBuckets layout, int firstIndex, ReadOnlySpan<ulong> counts, ulong overflow)
    {
        Layout = layout;
        FirstIndex = firstIndex;
        Counts = counts;
        Overflow = overflow;
    }

    public ulong Total()
    {
        ulong total = 0;
        foreach (ulong c in Counts)
            total += c;
        return total;
    }

    public HdrBucket GetBucket(int storageIndex)
    {
        nuint logical = (nuint)(storageIndex + FirstIndex);
        return new HdrBucket(
            storageIndex,
            (int)logical,
            Layout.GetBucketStart(logical),
            Layout.GetBucketStep(logical),
            Counts[storageIndex]);
    }

    /// <summary>The position a rank asks for: ⌈rank / 100 · total⌉, at least 1.</summary>
    /// <remarks>
    /// Computed as rank / 100 · total in doubles, the order the seed's tables were produced with (so
    /// P99.9 of 1,000,000 values is the 999,001st). The difference from exact arithmetic is one
    /// position at most, far inside a bucket.
    /// </remarks>
    public static ulong CountAtRank(double rank, ulong total) =>
        total == 0 ? 0 : Math.Max(1UL, (ulong)Math.Ceiling(rank / 100 * total));

    /// <summary>Fills <paramref name="destination"/> with the percentiles of validated <paramref name="ranks"/>.</summary>
    public void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> destination, EquivalentValueSelection selection, ulong total)
    {
        if (total == 0)
        {
            for (int r = 0; r < ranks.Length; r++)
                destination[r] = new Percentile(ranks[r], 0, 0, default);
            return;
        }

        // One forward scan serves ascending ranks (the usual case); a smaller rank restarts it.
        int index = 0;
        ulong cumulative = Counts[0];
        ulong previousTarget = 0;
        for (int r = 0; r < ranks.Length; r++)
        {
            ulong target = CountAtRank(ranks[r], total);
            if (target < previousTarget)
            {
                index = 0;
                cumulative = Counts[0];
            }

            while (cumulative < target)
                cumulative += Counts[++index];

            previousTarget = target;
            HdrBucket bucket = GetBucket(index);
            destination[r] = new Percentile(ranks[r], bucket.GetEquivalentValue(selection), target, bucket);
        }
    }

    /// <summary>Count-weighted mean and population standard deviation of the bucket midpoints.</summary>
    public (double Mean, double StdDev) GetMoments(ulong total)
    {
        if (total == 0)
            return (0, 0);

        double sum = 0;
        for (int i = 0; i < Counts.Length; i++)
        {
            if (Counts[i] != 0)
                sum += (double)Counts[i] * Layout.GetBucketMidpoint((nuint)(i + FirstIndex));
        }

        double mean = sum / total;

        // Second pass around the mean: the one-pass sum of squares cancels catastrophically for
        // narrow distributions of large values (e.g. 1e9 ± 10 cycles).
        double squares = 0;
        for (int i = 0; i < Counts.Length; i++)
        {
            if (Counts[i] != 0)
            {
                double d = Layout.GetBucketMidpoint((nuint)(i + FirstIndex)) - mean;
                squares += Counts[i] * d * d;
            }
        }

        return (mean, Math.Sqrt(squares / total));
    }
}
