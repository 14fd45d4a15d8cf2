using Picollo.Counters;

namespace Picollo.Measurement;

/// <summary>The canonical names of the counters that <see cref="PerfResult"/> has typed accessors for.</summary>
public static class PerfCounterNames
{
    /// <summary>The time-stamp counter, in ticks.</summary>
    public const string Tsc = TscCounterSource.CounterName;

    /// <summary>CPU cycles (perf_event hardware).</summary>
    public const string Cycles = "cycles";

    /// <summary>Retired instructions (perf_event hardware).</summary>
    public const string Instructions = "instructions";

    /// <summary>Mispredicted branches (perf_event hardware).</summary>
    public const string BranchMisses = "branch-misses";

    /// <summary>Last-level cache misses (perf_event hardware).</summary>
    public const string CacheMisses = "cache-misses";

    /// <summary>CPU time of the thread in ns (perf_event software, counts without a PMU).</summary>
    public const string TaskClock = "task-clock";

    /// <summary>Page faults (perf_event software, counts without a PMU).</summary>
    public const string PageFaults = "page-faults";

    /// <summary>Bytes allocated by the measuring thread (.NET runtime).</summary>
    public const string AllocatedBytes = RuntimeCounterSource.AllocatedBytes;

    /// <summary>Generation-0 collections, process-wide (.NET runtime).</summary>
    public const string Gen0Collections = RuntimeCounterSource.Gen0Collections;

    /// <summary>Generation-1 collections, process-wide (.NET runtime).</summary>
    public const string Gen1Collections = RuntimeCounterSource.Gen1Collections;

    /// <summary>Generation-2 collections, process-wide (.NET runtime).</summary>
    public const string Gen2Collections = RuntimeCounterSource.Gen2Collections;
}
