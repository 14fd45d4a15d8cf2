using Picollo.Metrics;

namespace Picollo.Observation;

/// <summary>
/// A reusable copy of one span's histograms, held by a <see cref="PerfSpanMonitor"/>: the totals, or the change since the
/// monitor's previous update. Updating allocates nothing once created.
/// </summary>
public sealed class PerfSpanSnapshot
{
    private readonly bool _deltas;
    private long _previousHops;
    private long _previousUncounted;

    internal PerfSpanSnapshot(PerfSpan span, bool deltas)
    {
        Span = span;
        _deltas = deltas;
        // A new snapshot holds the totals so far, in both modes: for a delta monitor, everything the span recorded before
        // the monitor first saw it belongs to that first interval. Its later updates hold the changes since.
        Counters = [.. span.Counters.Select(static c => c.Histogram.GetSnapshot())];
        Ipc = span.Ipc?.GetSnapshot();
        ThreadHops = _previousHops = span.ThreadHops;
        UncountedSpans = _previousUncounted = span.UncountedSpans;
    }

    /// <summary>The span.</summary>
    public PerfSpan Span { get; }

    /// <summary>One snapshot per <see cref="PerfSpan.Counters"/> entry, in the same order (an unavailable counter's stays empty).</summary>
    public IReadOnlyList<HdrHistogramSnapshot> Counters { get; }

    /// <summary>The snapshot of <see cref="PerfSpan.Ipc"/>, or <see langword="null"/>.</summary>
    public HdrHistogramSnapshot? Ipc { get; }

    /// <summary>Spans recorded (in the interval, for a delta monitor): the count of the first counting counter.</summary>
    public ulong Count
    {
        get
        {
            for (int i = 0; i < Counters.Count; i++)
            {
                if (Span.Counters[i].IsAvailable)
                    return Counters[i].TotalCount + Counters[i].OverflowCount;
            }

            return 0;
        }
    }

    /// <summary>Scopes that ended on another thread (in the interval, for a delta monitor).</summary>
    public long ThreadHops { get; private set; }

    /// <summary>Spans whose perf_event counters could not be read (in the interval, for a delta monitor).</summary>
    public long UncountedSpans { get; private set; }

    /// <summary>
    /// The snapshot of the counter named <paramref name="counterName"/>, or <see langword="null"/> when the span does not count it here.
    /// </summary>
    /// <param name="counterName">A counter name, e.g. <c>tsc</c>.</param>
    /// <returns>The counter's snapshot or <see langword="null"/>.</returns>
    public HdrHistogramSnapshot? Counter(string counterName)
    {
        for (int i = 0; i < Counters.Count; i++)
        {
            if (Span.Counters[i].IsAvailable && string.Equals(Span.Counters[i].Name, counterName, StringComparison.OrdinalIgnoreCase))
                return Counters[i];
        }

        return null;
    }

    /// <summary>Takes the next copy: the totals, or the change since the previous update.</summary>
    internal void Update()
    {
        foreach (HdrHistogramSnapshot snapshot in Counters)
            snapshot.Update(_deltas);
        Ipc?.Update(_deltas);
        long hops = Span.ThreadHops;
        long uncounted = Span.UncountedSpans;
        ThreadHops = _deltas ? hops - _previousHops : hops;
        UncountedSpans = _deltas ? uncounted - _previousUncounted : uncounted;
        _previousHops = hops;
        _previousUncounted = uncounted;
    }
}
