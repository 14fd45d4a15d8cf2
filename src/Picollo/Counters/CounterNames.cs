namespace Picollo.Counters;

/// <summary>
/// The canonical names of the counters Picollo knows by name: <c>tsc</c>, <c>clock</c>, the .NET runtime counters, and the
/// perf_event counters that results have typed accessors for. Names are case-insensitive wherever a counter is looked up;
/// perf aliases (<c>cpu-cycles</c>) resolve to these spellings.
/// </summary>
public static class CounterNames
{
    /// <summary>The time-stamp counter, in ticks (<c>rdtscp</c>).</summary>
    public const string Tsc = "tsc";

    /// <summary>
    /// Wall time in nanoseconds from the runtime's high-resolution clock (<see cref="System.Diagnostics.Stopwatch"/>): counts
    /// on every OS and architecture .NET runs on, and is the default time counter where <c>tsc</c> cannot count
    /// (docs/COUNTERS.md, "The portable clock").
    /// </summary>
    public const string Clock = "clock";

    /// <summary>Bytes allocated by the measuring thread (.NET runtime, exact without background GC).</summary>
    public const string AllocatedBytes = "allocated-bytes";

    /// <summary>Generation-0 collections, process-wide (.NET runtime).</summary>
    public const string Gen0Collections = "gen0-collections";

    /// <summary>Generation-1 collections, process-wide (.NET runtime).</summary>
    public const string Gen1Collections = "gen1-collections";

    /// <summary>Generation-2 (full) collections, process-wide (.NET runtime).</summary>
    public const string Gen2Collections = "gen2-collections";

    /// <summary>Methods JIT-compiled on the measuring thread (.NET runtime).</summary>
    public const string JitMethods = "jit-methods";

    /// <summary>IL bytes JIT-compiled on the measuring thread (.NET runtime).</summary>
    public const string JitIlBytes = "jit-il-bytes";

    /// <summary>Monitor lock contentions, process-wide (.NET runtime).</summary>
    public const string LockContentions = "lock-contentions";

    /// <summary>CPU cycles (perf_event hardware).</summary>
    public const string Cycles = "cycles";

    /// <summary>Retired instructions (perf_event hardware).</summary>
    public const string Instructions = "instructions";

    /// <summary>Retired branch instructions (perf_event hardware).</summary>
    public const string Branches = "branches";

    /// <summary>Mispredicted branches (perf_event hardware).</summary>
    public const string BranchMisses = "branch-misses";

    /// <summary>Last-level cache misses (perf_event hardware).</summary>
    public const string CacheMisses = "cache-misses";

    /// <summary>CPU time of the measuring thread in ns (perf_event software: counts without a PMU).</summary>
    public const string TaskClock = "task-clock";

    /// <summary>Page faults (perf_event software: counts without a PMU).</summary>
    public const string PageFaults = "page-faults";

    /// <summary>
    /// Instructions the measuring thread executed under Valgrind's callgrind (simulated: counts on any Linux x86-64 machine
    /// with Valgrind, no PMU needed; docs/COUNTERS.md, "Simulated counters").
    /// </summary>
    public const string SimInstructions = "sim-instructions";

    /// <summary>Conditional and indirect branches the measuring thread executed under callgrind (simulated).</summary>
    public const string SimBranches = "sim-branches";

    /// <summary>Branches callgrind's branch predictor model mispredicted (simulated).</summary>
    public const string SimBranchMisses = "sim-branch-misses";

    /// <summary>First-level instruction and data cache misses of callgrind's cache model (simulated; a fixed cache geometry).</summary>
    public const string SimL1Misses = "sim-l1-misses";

    /// <summary>Last-level cache misses of callgrind's cache model (simulated; a fixed cache geometry).</summary>
    public const string SimCacheMisses = "sim-cache-misses";

    /// <summary>
    /// Cycles estimated from the simulated counts: instructions + 10 × branch misses + 10 × first-level misses + 100 ×
    /// last-level misses (docs/COUNTERS.md, "Simulated counters").
    /// </summary>
    public const string SimCycles = "sim-cycles";
}
