using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.PerfEvents;

/// <summary>
/// One counter of a <see cref="PerfEventCounterSession"/> that the machine could open: its identity, its
/// histogram, and what the last <see cref="PerfEventCounterSession.Record"/> stored.
/// </summary>
public sealed class PerfEventCounter
{
    internal PerfEventCounter(PerfEventSpec spec, CounterDescriptor descriptor, HdrHistogram histogram, int groupIndex)
    {
        Spec = spec;
        Descriptor = descriptor;
        Histogram = histogram;
        GroupIndex = groupIndex;
        Name = PerfEventNames.DisplayName(spec);
    }

    /// <summary>The display name: the event family and its id, e.g. <c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>, <c>Software:TaskClock</c>.</summary>
    public string Name { get; }

    /// <summary>The event as opened.</summary>
    public PerfEventSpec Spec { get; }

    /// <summary>The counter-source view of this counter (perf name, unit, kind); always available here.</summary>
    public CounterDescriptor Descriptor { get; }

    /// <summary>The values <see cref="PerfEventCounterSession.Record"/> stored, multiplexing-scaled.</summary>
    public HdrHistogram Histogram { get; }

    /// <summary>The value of the last successful record for this counter (a delta or a cumulative value, scaled).</summary>
    public ulong LastValue { get; internal set; }

    /// <summary>
    /// time_running / time_enabled over the interval of the last record: 1 when the event had a hardware
    /// counter the whole time, less when the kernel multiplexed it and the value was extrapolated
    /// (count × enabled / running). <see cref="double.NaN"/> before the first record.
    /// </summary>
    public double MultiplexingRatio { get; internal set; } = double.NaN;

    /// <summary>
    /// Records skipped for this counter because it never ran in the interval (time_running did not advance:
    /// "not counted", which is not a zero), or because its count went backwards.
    /// </summary>
    public long NotCountedSamples { get; internal set; }

    /// <summary>The position of the event in the session's group read.</summary>
    internal int GroupIndex { get; }

    /// <inheritdoc />
    public override string ToString() => Name;
}
