using Picollo.Counters;

namespace Picollo.Observation;

/// <summary>What a <see cref="PerfSpan"/> counts, and what it may pay to count it.</summary>
/// <remarks>
/// The default counters (<c>tsc</c>, <c>allocated-bytes</c>) cost a few nanoseconds per read on every machine. A perf_event
/// counter is read with <c>rdpmc</c> where the kernel allows it (a hardware counter of the CPU PMU, the thread's own
/// session), also a few nanoseconds; a counter that can only be read with a <c>read()</c> system call (any software
/// counter such as <c>task-clock</c>, or a hardware counter on a machine that refuses rdpmc) costs microseconds per
/// boundary and is counted only with <see cref="AllowSyscallReads"/> (docs/OBSERVATION.md, "What a span costs").
/// </remarks>
public sealed class PerfSpanOptions
{
    /// <summary>The counters a span counts when none are named: <c>tsc</c> and <c>allocated-bytes</c>.</summary>
    public static IReadOnlyList<string> DefaultCounters { get; } = [CounterNames.Tsc, CounterNames.AllocatedBytes];

    /// <summary>
    /// The counters to read at the span's boundaries: <c>tsc</c>, <c>allocated-bytes</c> and any perf_event name
    /// (<c>cycles</c>, <c>instructions</c>, <c>branch-misses</c>, <c>task-clock</c>, <c>cpu/event=0x3c/</c>, …), at most
    /// <see cref="PerfSpan.MaxPerfCounters"/> of them perf_event counters. Defaults to <see cref="DefaultCounters"/>.
    /// </summary>
    public IReadOnlyList<string> Counters { get; init; } = DefaultCounters;

    /// <summary>
    /// Counts perf_event counters that need a <c>read()</c> system call per boundary (2–3 µs each on a VM, two per span).
    /// Off by default: such counters are then reported unavailable with the reason, and cost nothing. (A hardware counter
    /// read with rdpmc still falls back to one <c>read()</c> at a boundary where the kernel has multiplexed its group out.)
    /// </summary>
    public bool AllowSyscallReads { get; init; }

    /// <summary>
    /// The relative error of the span histograms (default 1%: two significant digits). Each thread that enters the span
    /// holds one histogram shard per counter, so a finer error costs memory per thread (docs/OBSERVATION.md, "Memory").
    /// </summary>
    public double RelativeError { get; init; } = 0.01;
}
