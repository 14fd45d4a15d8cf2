namespace Picollo.Metrics;

/// <summary>
/// A consistent, reusable copy of a live histogram's counters: either its totals or the change since
/// the previous <see cref="Update"/>. Updating and summarizing allocate nothing once created, so a
/// monitoring thread can poll a histogram that writers keep recording into, without resetting it.
/// </summary>
/// <remarks>Not thread-safe itself: one monitoring thread owns a snapshot.</remarks>
public sealed class HdrHistogramSnapshot
{
    private readonly HdrHistogram _histogram;

    // The histogram's totals at the previous update, and the scratch the next copy goes into.
    private ulong[] _previous;
    private ulong[] _next;
    private ulong _previousOverflow;
    private long _previousResetCount;

    // What this snapshot holds: deltas or totals.
    private readonly ulong[] _counts;
    private ulong _overflow;

    internal HdrHistogramSnapshot(HdrHistogram histogram)
    {
        _histogram = histogram;
        _previous = new ulong[histogram.BucketCount];
        _next = new ulong[histogram.BucketCount];
        _counts = new ulong[histogram.BucketCount];
        Update(deltas: false);
    }

    /// <summary>The histogram this snapshot reads.</summary>
    public HdrHistogram Histogram => _histogram;

    /// <summary><see langword="true"/> when the snapshot holds the change since the previous update, not totals.</summary>
    public bool IsDelta { get; private set; }

    /// <summary>When the snapshot was last updated (UTC).</summary>
    public DateTime TimestampUtc { get; private set; }

    /// <summary>How long the delta covers: the time between the last two updates (zero for totals).</summary>
    public TimeSpan Interval { get; private set; }

    /// <summary>Values inside the trackable range that this snapshot holds.</summary>
    public ulong TotalCount => Counts.Total();

    /// <summary>Values outside the trackable range that this snapshot holds.</summary>
    public ulong OverflowCount => _overflow;

    /// <summary>
    /// Takes a new consistent copy of the histogram. With <paramref name="deltas"/> the snapshot then
    /// holds what was recorded since the previous update; otherwise the totals. Allocates nothing.
    /// </summary>
    /// <param name="deltas">Hold the change since the previous update (default) instead of the totals.</param>
    /// <remarks>
    /// When the histogram was reset since the previous update, the delta is what was recorded since the
    /// reset: counts recorded between the previous update and the reset were cleared before any
    /// snapshot could see them.
    /// </remarks>
    public void Update(bool deltas = true)
    {
        ulong overflow = _histogram.CopyCounts(_next, out long resetCount);
        DateTime now = DateTime.UtcNow;

        bool sinceReset = resetCount != _previousResetCount;
        if (deltas && !sinceReset)
        {
            for (int i = 0; i < _counts.Length; i++)
                _counts[i] = _next[i] - _previous[i];
            _overflow = overflow - _previousOverflow;
        }
        else
        {
            _next.CopyTo(_counts, 0);
            _overflow = overflow;
        }

        IsDelta = deltas;
        Interval = deltas && TimestampUtc != default ? now - TimestampUtc : TimeSpan.Zero;
        TimestampUtc = now;
        (_previous, _next) = (_next, _previous);
        _previousOverflow = overflow;
        _previousResetCount = resetCount;
    }

    /// <summary>Summarizes what the snapshot holds.</summary>
    /// <param name="reuseInstance">A summary to refill in place (no allocation).</param>
    /// <returns><paramref name="reuseInstance"/> refilled, or a new summary; its timestamp is the snapshot's.</returns>
    public HdrHistogramSummary GetSummary(HdrHistogramSummary? reuseInstance = null)
    {
        var summary = reuseInstance ?? new HdrHistogramSummary();
        summary.Fill(Counts, _histogram.MinTrackableValue, _histogram.MaxTrackableValue, TimestampUtc);
        return summary;
    }

    /// <summary>Computes percentiles of what the snapshot holds (see <see cref="HdrHistogram.GetPercentiles"/>).</summary>
    /// <param name="ranks">Percentile ranks in [0, 100].</param>
    /// <param name="destination">Receives one percentile per rank.</param>
    /// <param name="selection">Which value of the bucket to report; <see langword="null"/> for the default.</param>
    /// <exception cref="ArgumentException">A rank is NaN, or <paramref name="destination"/> is too short.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A rank is below 0 or above 100.</exception>
    public void GetPercentiles(ReadOnlySpan<double> ranks, Span<Percentile> destination, EquivalentValueSelection? selection = null)
    {
        HdrHistogram.ValidateRanks(ranks, destination.Length);
        HdrCounts counts = Counts;
        counts.GetPercentiles(ranks, destination, selection ?? Percentile.DefaultEquivalentValueSelection, counts.Total());
    }

    /// <summary>Computes one percentile of what the snapshot holds.</summary>
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

    /// <summary>The held counters, storage index by storage index (for tests and exporters).</summary>
    internal ReadOnlySpan<ulong> BucketCounts => _counts;

    private HdrCounts Counts => new(_histogram.Layout, _histogram.FirstLogicalIndex, _counts, _overflow);
}
