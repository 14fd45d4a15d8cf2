namespace Picollo.PerfEvents;

/// <summary>Typed access to the generalized hardware counters of a session (<c>Counters.Hardware.CpuCycles</c>).</summary>
public sealed class PerfHardwareCounters
{
    private readonly PerfEventCounters _counters;

    internal PerfHardwareCounters(PerfEventCounters counters) => _counters = counters;

    /// <summary>The counter of <paramref name="id"/>, or <see langword="null"/> when the session does not count it.</summary>
    /// <param name="id">The event.</param>
    public PerfEventCounter? this[PerfHardwareCounterId id] => _counters.Find(PerfEventType.Hardware, (ulong)id);

    /// <summary>
    /// cycles: core clock cycles while the thread runs (varies with frequency scaling); <see langword="null"/> when the session does not
    /// count it.
    /// </summary>
    public PerfEventCounter? CpuCycles => this[PerfHardwareCounterId.CpuCycles];

    /// <summary>instructions: instructions retired; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? Instructions => this[PerfHardwareCounterId.Instructions];

    /// <summary>cache-references: usually last-level cache accesses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? CacheReferences => this[PerfHardwareCounterId.CacheReferences];

    /// <summary>cache-misses: usually last-level cache misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? CacheMisses => this[PerfHardwareCounterId.CacheMisses];

    /// <summary>branches: branch instructions retired; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchInstructions => this[PerfHardwareCounterId.BranchInstructions];

    /// <summary>branch-misses: mispredicted branches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchMisses => this[PerfHardwareCounterId.BranchMisses];

    /// <summary>bus-cycles; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BusCycles => this[PerfHardwareCounterId.BusCycles];

    /// <summary>stalled-cycles-frontend; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? StalledCyclesFrontend => this[PerfHardwareCounterId.StalledCyclesFrontend];

    /// <summary>stalled-cycles-backend; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? StalledCyclesBackend => this[PerfHardwareCounterId.StalledCyclesBackend];

    /// <summary>
    /// ref-cycles: reference cycles, not affected by frequency scaling; <see langword="null"/> when the session does not count it.
    /// </summary>
    public PerfEventCounter? RefCpuCycles => this[PerfHardwareCounterId.RefCpuCycles];
}
