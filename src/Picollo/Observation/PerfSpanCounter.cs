using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Observation;

/// <summary>
/// One counter of a <see cref="PerfSpan"/>: what it is, whether it counts here, and the histogram of its value per span
/// (the difference between the span's exit and its enter, on the thread that entered it).
/// </summary>
public sealed class PerfSpanCounter
{
    internal PerfSpanCounter(
        string name, string unit, CounterKind kind, HdrHistogram histogram, string? unavailableReason, bool readsBySyscall)
    {
        Name = name;
        Unit = unit;
        Kind = kind;
        Histogram = histogram;
        UnavailableReason = unavailableReason;
        ReadsBySyscall = readsBySyscall;
    }

    /// <summary>The canonical counter name (<c>tsc</c>, <c>allocated-bytes</c>, <c>cycles</c>, …).</summary>
    public string Name { get; }

    /// <summary>The unit of one recorded count: <c>ticks</c> for the TSC, <c>bytes</c>, <c>events</c>, <c>ns</c>.</summary>
    public string Unit { get; }

    /// <summary>Where the value comes from.</summary>
    public CounterKind Kind { get; }

    /// <summary>
    /// The values per span, recorded without locks into the entering thread's own shard (<see cref="HdrConcurrency.ThreadLocal"/>);
    /// read it with <see cref="HdrHistogram.GetSnapshot"/> and <see cref="HdrHistogramSnapshot.Update"/> (deltas) or through a
    /// <see cref="PerfSpanMonitor"/>. Empty when the counter is unavailable.
    /// </summary>
    public HdrHistogram Histogram { get; }

    /// <summary><see langword="null"/> when the counter counts; otherwise why not and what to do, as one sentence to show a user.</summary>
    public string? UnavailableReason { get; }

    /// <summary>Whether the counter counts on this machine.</summary>
    public bool IsAvailable => UnavailableReason is null;

    /// <summary>
    /// Whether each read is a <c>read()</c> system call (microseconds: docs/OBSERVATION.md) rather than <c>rdpmc</c> or a plain load.
    /// </summary>
    public bool ReadsBySyscall { get; }

    /// <inheritdoc/>
    public override string ToString() => IsAvailable ? Name + " (" + Unit + ")" : Name + " (unavailable)";
}
