namespace Picollo.PerfEvents;

/// <summary>Generalized hardware events: the <c>config</c> of <see cref="PerfEventType.Hardware"/> (enum perf_hw_id).</summary>
public enum PerfHardwareCounterId : ulong
{
    /// <summary>cycles: core clock cycles while the thread runs (varies with frequency scaling).</summary>
    CpuCycles = 0,

    /// <summary>instructions: instructions retired.</summary>
    Instructions = 1,

    /// <summary>cache-references: usually last-level cache accesses.</summary>
    CacheReferences = 2,

    /// <summary>cache-misses: usually last-level cache misses.</summary>
    CacheMisses = 3,

    /// <summary>branches: branch instructions retired.</summary>
    BranchInstructions = 4,

    /// <summary>branch-misses: mispredicted branches.</summary>
    BranchMisses = 5,

    /// <summary>bus-cycles.</summary>
    BusCycles = 6,

    /// <summary>stalled-cycles-frontend.</summary>
    StalledCyclesFrontend = 7,

    /// <summary>stalled-cycles-backend.</summary>
    StalledCyclesBackend = 8,

    /// <summary>ref-cycles: reference cycles, not affected by frequency scaling.</summary>
    RefCpuCycles = 9,
}
