using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.PerfEvents;

/// <summary>
/// One counter of a <see cref="PerfEventCounterSession"/> that the machine could open: its identity, its
/// histogram, and what the last <see cref="PerfEventCounterSession.Record"/> stored. A counter sums one or
/// more events: on a hybrid CPU a generic event such as <c>cycles</c> is one event per core PMU.
/// </summary>
public sealed class PerfEventCounter
{
    private readonly int[] _eventIndices;
    private readonly bool _eventsShareTime;

    internal PerfEventCounter(
        PerfEventSpec spec,
        PerfEventSpec[] events,
        int[] eventIndices,
        bool eventsShareTime,
        CounterDescriptor descriptor,
        HdrHistogram histogram)
    {
        Spec = spec;
        Events = events;
        _eventIndices = eventIndices;
        _eventsShareTime = eventsShareTime;
        Descriptor = descriptor;
        Histogram = histogram;
        Name = PerfEventNames.DisplayName(spec);
    }

    /// <summary>
    /// The display name: the event family and its id, e.g. <c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>,
    /// <c>Software:TaskClock</c>.
    /// </summary>
    public string Name { get; }

    /// <summary>
    /// The event this counter stands for: the event opened, or for a counter summing several events the generic
    /// event they expand (type and config as on a non-hybrid CPU), or the sysfs event name the PMUs share.
    /// </summary>
    public PerfEventSpec Spec { get; }

    /// <summary>
    /// The events opened and summed: <see cref="Spec"/> itself, or one per core PMU that could be opened on a hybrid CPU.
    /// </summary>
    public IReadOnlyList<PerfEventSpec> Events { get; }

    /// <summary>
    /// The counter-source view of this counter (perf name, unit, scale, kind; a missing core type in
    /// <see cref="CounterDescriptor.PartialReason"/>).
    /// </summary>
    public CounterDescriptor Descriptor { get; }

    /// <summary>
    /// The values <see cref="PerfEventCounterSession.Record"/> stored, multiplexing-scaled raw counts (integers):
    /// multiply by <see cref="CounterDescriptor.Scale"/> for <see cref="CounterDescriptor.Unit"/>.
    /// </summary>
    public HdrHistogram Histogram { get; }

    /// <summary>
    /// The value of the last successful record for this counter (a delta or a cumulative value, scaled for multiplexing), in raw counts.
    /// </summary>
    public ulong LastValue { get; internal set; }

    /// <summary>
    /// <see cref="LastValue"/> × <see cref="CounterDescriptor.Scale"/>: the last value in <see cref="CounterDescriptor.Unit"/>
    /// (e.g. Joules for <c>power/energy-pkg/</c>); equal to <see cref="LastValue"/> for events without a sysfs scale.
    /// </summary>
    public double LastScaledValue => LastValue * Descriptor.Scale;

    /// <summary>
    /// time_running / time_enabled over the interval of the last record: 1 when the event had a hardware
    /// counter the whole time, less when the kernel multiplexed it and the value was extrapolated
    /// (count × enabled / running). <see cref="double.NaN"/> before the first record. For a counter summing
    /// several events, the total running time over the total enabled time (hybrid CPU: the running times of the
    /// core types add up, since the thread runs on one at a time).
    /// </summary>
    public double MultiplexingRatio { get; internal set; } = double.NaN;

    /// <summary>
    /// Records skipped for this counter because it never ran in the interval (time_running did not advance:
    /// "not counted", which is not a zero; for several events, none of them ran), or because a count went backwards.
    /// </summary>
    public long NotCountedSamples { get; internal set; }

    /// <inheritdoc />
    public override string ToString() => Name;

    /// <summary>
    /// The counter's value from its events' values (indexed as the session's group reads): the cumulative value, or
    /// with <paramref name="deltas"/> the value between <paramref name="previous"/> and <paramref name="current"/>.
    /// </summary>
    /// <remarks>
    /// <para>Events that count at the same time (PMUs of different devices, e.g. several uncore boxes) are each
    /// extrapolated by their own enabled/running and summed: a member that did not run contributes nothing, and the
    /// counter is "not counted" only when no member ran.</para>
    /// <para>Core PMUs of a hybrid CPU take turns instead: for a thread, every member's time_enabled advances while
    /// the thread runs anywhere, but a member only runs while the thread is on its core type (the kernel leaves it
    /// inactive elsewhere: <c>perf stat</c> shows <c>cpu_atom/cycles/ (0.00%)</c> for a thread that stayed on P-cores).
    /// Extrapolating each member by its own ratio would count a thread split 50/50 between core types twice
    /// (each half × 2). So their counts and running times are added first and the sum is extrapolated once:
    /// Σcount × enabled / Σrunning, which is exact without multiplexing (Σrunning = enabled) and perf's usual
    /// extrapolation when a core type's PMU was multiplexed. Not counted when no member ran.</para>
    /// </remarks>
    /// <returns><see langword="false"/> when not counted (or a count went backwards).</returns>
    internal bool TryMeasure(
        ReadOnlySpan<Interop.PerfEventValue> current,
        ReadOnlySpan<Interop.PerfEventValue> previous,
        bool deltas,
        out ulong value,
        out double ratio)
    {
        value = 0;
        ratio = double.NaN;
        ulong total = 0, enabledSum = 0, runningSum = 0, enabledMax = 0;
        bool counted = false;
        foreach (int index in _eventIndices)
        {
            ulong count = current[index].Count;
            ulong enabled = current[index].Enabled;
            ulong running = current[index].Running;
            if (deltas)
            {
                Interop.PerfEventValue before = previous[index];
                if (count < before.Count || enabled < before.Enabled || running < before.Running)
                    return false;
                count -= before.Count;
                enabled -= before.Enabled;
                running -= before.Running;
            }

            if (_eventsShareTime)
            {
                total = SaturatingAdd(total, count);
                runningSum += running;
                enabledMax = Math.Max(enabledMax, enabled); // the members' reads are a few µs apart: take the latest
                continue;
            }

            if (TryScale(count, enabled, running, out ulong scaled))
            {
                total = SaturatingAdd(total, scaled);
                counted = true;
            }

            enabledSum += enabled;
            runningSum += Math.Min(running, enabled);
        }

        if (_eventsShareTime)
        {
            if (!TryScale(total, enabledMax, runningSum, out value))
                return false;
            ratio = Ratio(runningSum, enabledMax);
            return true;
        }

        if (!counted)
            return false;
        value = total;
        ratio = Ratio(runningSum, enabledSum);
        return true;
    }

    /// <summary>
    /// The count extrapolated to the whole enabled time, as perf stat does: count × enabled / running.
    /// <c>running == 0</c> means the event never reached a counter: "not counted", not zero, and no division.
    /// </summary>
    /// <returns><see langword="false"/> when not counted.</returns>
    internal static bool TryScale(ulong count, ulong enabled, ulong running, out ulong scaled)
    {
        if (running == 0)
        {
            scaled = 0;
            return false;
        }

        if (running >= enabled)
        {
            // Not multiplexed (running == enabled), or clock skew between the two reads: nothing to extrapolate.
            scaled = count;
            return true;
        }

        // 128-bit product: count × enabled overflows 64 bits after ~5 s of a 3 GHz cycle counter × 1e9 ns.
        UInt128 product = (UInt128)count * enabled / running;
        scaled = product > ulong.MaxValue ? ulong.MaxValue : (ulong)product;
        return true;
    }

    private static double Ratio(ulong running, ulong enabled) => running >= enabled ? 1.0 : (double)running / enabled;

    private static ulong SaturatingAdd(ulong a, ulong b) => ulong.MaxValue - a < b ? ulong.MaxValue : a + b;
}
