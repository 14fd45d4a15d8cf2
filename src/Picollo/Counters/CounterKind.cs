namespace Picollo.Counters;

/// <summary>Where a counter comes from; decides how far its values can be compared across machines.</summary>
public enum CounterKind
{
    /// <summary>
    /// A generalized CPU event of perf_event (cycles, instructions, branch misses, …): same CPU model only for cycles, same ISA for
    /// instructions.
    /// </summary>
    Hardware,

    /// <summary>A CPU cache event of perf_event (L1D/L1I/LL/dTLB/iTLB/branch × op × result).</summary>
    HardwareCache,

    /// <summary>A raw or sysfs-named PMU event (<c>rNNNN</c>, <c>pmu/event=…/</c>).</summary>
    Raw,

    /// <summary>A kernel software event (task-clock, page-faults, …): counts on every Linux machine.</summary>
    Software,

    /// <summary>The time-stamp counter read with rdtsc/rdtscp.</summary>
    Tsc,

    /// <summary>A .NET runtime counter (allocated bytes, GC collections, JIT, lock contentions): deterministic, every OS.</summary>
    Runtime,

    /// <summary>
    /// A count of Valgrind's callgrind, which runs the measured body on a simulated CPU in a worker process (instructions,
    /// branches, simulated branch and cache misses, an estimate of cycles): the same on any machine with the same
    /// Valgrind, runtime and instruction set, no PMU needed.
    /// </summary>
    Simulated,

    /// <summary>
    /// The runtime's high-resolution clock (<see cref="System.Diagnostics.Stopwatch"/>), in nanoseconds: wall time on every OS
    /// and architecture, the time counter where the TSC cannot be read.
    /// </summary>
    Clock,
}
