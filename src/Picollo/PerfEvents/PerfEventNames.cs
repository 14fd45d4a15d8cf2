using System.Globalization;
using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>
/// The two names of a generic event: the perf spelling (<c>cycles</c>, <c>L1-dcache-load-misses</c>) used by
/// <see cref="CounterDescriptor.Name"/>, and the display name of the article (<c>Hardware:CpuCycles</c>).
/// Not a parser: resolving names typed by users is the catalog's job.
/// </summary>
internal static class PerfEventNames
{
    public static PerfEventSpec Spec(PerfHardwareCounterId id) => PerfEventSpec.Hardware(PerfName(id), id);

    public static PerfEventSpec Spec(PerfSoftwareCounterId id) =>
        PerfEventSpec.Software(PerfName(id), id, id is PerfSoftwareCounterId.TaskClock or PerfSoftwareCounterId.CpuClock ? "ns" : "events");

    public static PerfEventSpec Spec(PerfCacheCounterId id) => PerfEventSpec.Cache(PerfName(id), id);

    // The catalog owns perf's spellings; ids outside the enums (a cast integer) still get a stable name.
    public static string PerfName(PerfHardwareCounterId id) =>
        Enum.IsDefined(id) ? PerfEventCatalog.GetName(id) : "hardware-" + ((ulong)id).ToString(CultureInfo.InvariantCulture);

    public static string PerfName(PerfSoftwareCounterId id) =>
        Enum.IsDefined(id) ? PerfEventCatalog.GetName(id) : "software-" + ((ulong)id).ToString(CultureInfo.InvariantCulture);

    public static string PerfName(PerfCacheCounterId id) =>
        Enum.IsDefined(id) ? PerfEventCatalog.GetName(id) : "cache-0x" + ((ulong)id).ToString("x", CultureInfo.InvariantCulture);

    /// <summary>
    /// The article's display name: <c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>, <c>Software:TaskClock</c>; otherwise
    /// <c>Kind:perf-name</c>.
    /// </summary>
    public static string DisplayName(PerfEventSpec spec)
    {
        string? name = spec.Type switch
        {
            (uint)PerfEventType.Hardware when Enum.IsDefined((PerfHardwareCounterId)spec.Config) =>
                ((PerfHardwareCounterId)spec.Config).ToString(),
            (uint)PerfEventType.Software when Enum.IsDefined((PerfSoftwareCounterId)spec.Config) =>
                ((PerfSoftwareCounterId)spec.Config).ToString(),
            (uint)PerfEventType.HardwareCache when Enum.IsDefined((PerfCacheCounterId)spec.Config) =>
                ((PerfCacheCounterId)spec.Config).ToString(),
            _ => null,
        };
        return name is null ? spec.Kind + ":" + spec.Name : spec.Kind + ":" + name;
    }
}
