using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>
/// The two names of a generic event: the perf spelling (<c>cycles</c>, <c>L1-dcache-load-misses</c>) used by
/// <see cref="CounterDescriptor.Name"/>, and the display name of the article (<c>Hardware:CpuCycles</c>).
/// Not a parser: resolving names typed by users is the catalog's job.
/// </summary>
internal static class PerfEventNames
{
    private static readonly string[] CacheNames = ["L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"];

    public static PerfEventSpec Spec(PerfHardwareCounterId id) => PerfEventSpec.Hardware(PerfName(id), id);

    public static PerfEventSpec Spec(PerfSoftwareCounterId id) =>
        PerfEventSpec.Software(PerfName(id), id, id is PerfSoftwareCounterId.TaskClock or PerfSoftwareCounterId.CpuClock ? "ns" : "events");

    public static PerfEventSpec Spec(PerfCacheCounterId id) => PerfEventSpec.Cache(PerfName(id), id);

    public static string PerfName(PerfHardwareCounterId id) => id switch
    {
        PerfHardwareCounterId.CpuCycles => "cycles",
        PerfHardwareCounterId.Instructions => "instructions",
        PerfHardwareCounterId.CacheReferences => "cache-references",
        PerfHardwareCounterId.CacheMisses => "cache-misses",
        PerfHardwareCounterId.BranchInstructions => "branches",
        PerfHardwareCounterId.BranchMisses => "branch-misses",
        PerfHardwareCounterId.BusCycles => "bus-cycles",
        PerfHardwareCounterId.StalledCyclesFrontend => "stalled-cycles-frontend",
        PerfHardwareCounterId.StalledCyclesBackend => "stalled-cycles-backend",
        PerfHardwareCounterId.RefCpuCycles => "ref-cycles",
        _ => "hardware-" + ((ulong)id).ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    public static string PerfName(PerfSoftwareCounterId id) => id switch
    {
        PerfSoftwareCounterId.CpuClock => "cpu-clock",
        PerfSoftwareCounterId.TaskClock => "task-clock",
        PerfSoftwareCounterId.PageFaults => "page-faults",
        PerfSoftwareCounterId.ContextSwitches => "context-switches",
        PerfSoftwareCounterId.CpuMigrations => "cpu-migrations",
        PerfSoftwareCounterId.PageFaultsMin => "minor-faults",
        PerfSoftwareCounterId.PageFaultsMaj => "major-faults",
        PerfSoftwareCounterId.AlignmentFaults => "alignment-faults",
        PerfSoftwareCounterId.EmulationFaults => "emulation-faults",
        PerfSoftwareCounterId.Dummy => "dummy",
        _ => "software-" + ((ulong)id).ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    /// <summary>cache | op &lt;&lt; 8 | result &lt;&lt; 16 → e.g. <c>L1-dcache-loads</c> (access) or <c>L1-dcache-load-misses</c> (miss), as perf lists them.</summary>
    public static string PerfName(PerfCacheCounterId id)
    {
        ulong config = (ulong)id;
        ulong cache = config & 0xFF;
        ulong op = (config >> 8) & 0xFF;
        ulong result = (config >> 16) & 0xFF;
        if (cache >= (ulong)CacheNames.Length || op > 2 || result > 1 || config > 0xFFFFFF)
            return "cache-0x" + config.ToString("x", System.Globalization.CultureInfo.InvariantCulture);
        string opName = op switch { 0 => "load", 1 => "store", _ => "prefetch" };
        return CacheNames[cache] + "-" + (result == 0 ? opName + (op == 2 ? "es" : "s") : opName + "-misses");
    }

    /// <summary>The article's display name: <c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>, <c>Software:TaskClock</c>; otherwise <c>Kind:perf-name</c>.</summary>
    public static string DisplayName(PerfEventSpec spec)
    {
        string? name = spec.Type switch
        {
            (uint)PerfEventType.Hardware when Enum.IsDefined((PerfHardwareCounterId)spec.Config) => ((PerfHardwareCounterId)spec.Config).ToString(),
            (uint)PerfEventType.Software when Enum.IsDefined((PerfSoftwareCounterId)spec.Config) => ((PerfSoftwareCounterId)spec.Config).ToString(),
            (uint)PerfEventType.HardwareCache when Enum.IsDefined((PerfCacheCounterId)spec.Config) => ((PerfCacheCounterId)spec.Config).ToString(),
            _ => null,
        };
        return name is null ? spec.Kind + ":" + spec.Name : spec.Kind + ":" + name;
    }
}
