using System.Collections;

namespace Picollo.PerfEvents;

/// <summary>
/// The counters a <see cref="PerfEventCounterSession"/> opened, in request order, with typed access by family.
/// Counters that could not be opened are not here (see <see cref="PerfEventCounterSession.UnavailableCounters"/>),
/// so a typed accessor returns <see langword="null"/> for them rather than an empty histogram.
/// </summary>
public sealed class PerfEventCounters : IReadOnlyList<PerfEventCounter>
{
    private readonly PerfEventCounter[] _counters;

    internal PerfEventCounters(PerfEventCounter[] counters)
    {
        _counters = counters;
        Hardware = new PerfHardwareCounters(this);
        Software = new PerfSoftwareCounters(this);
        Cache = new PerfCacheCounters(this);
    }

    /// <summary>Generalized hardware counters: <c>Counters.Hardware.CpuCycles</c>.</summary>
    public PerfHardwareCounters Hardware { get; }

    /// <summary>Software counters: <c>Counters.Software.TaskClock</c>.</summary>
    public PerfSoftwareCounters Software { get; }

    /// <summary>Hardware cache counters: <c>Counters.Cache.L1DReadMiss</c>.</summary>
    public PerfCacheCounters Cache { get; }

    /// <inheritdoc />
    public int Count => _counters.Length;

    /// <inheritdoc />
    public PerfEventCounter this[int index] => _counters[index];

    /// <summary>Enumerates without allocating.</summary>
    /// <returns>A span enumerator over the counters.</returns>
    public ReadOnlySpan<PerfEventCounter>.Enumerator GetEnumerator() => new ReadOnlySpan<PerfEventCounter>(_counters).GetEnumerator();

    IEnumerator<PerfEventCounter> IEnumerable<PerfEventCounter>.GetEnumerator() =>
        ((IEnumerable<PerfEventCounter>)_counters).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _counters.GetEnumerator();

    /// <summary>The counter of a generic event, or null.</summary>
    internal PerfEventCounter? Find(PerfEventType type, ulong config)
    {
        foreach (PerfEventCounter counter in _counters)
        {
            if (counter.Spec.Type == (uint)type && counter.Spec.Config == config)
                return counter;
        }

        return null;
    }
}
