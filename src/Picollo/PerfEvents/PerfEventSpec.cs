using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>A perf event resolved from a name: everything <c>perf_event_open</c> needs, plus how to present its counts.</summary>
/// <param name="Name">The canonical name (e.g. <c>cycles</c>, <c>L1-dcache-load-misses</c>, <c>cpu_core/cycles/</c>, <c>r01c2</c>).</param>
/// <param name="Type">perf_event_attr.type: a <see cref="PerfEventType"/> value or a PMU's dynamic type from sysfs.</param>
/// <param name="Config">perf_event_attr.config.</param>
/// <param name="Config1">perf_event_attr.config1 (extended event fields).</param>
/// <param name="Config2">perf_event_attr.config2.</param>
/// <param name="Kind">The counter family, for availability and baseline portability.</param>
/// <param name="Unit">The unit of one count (<c>events</c> unless sysfs says otherwise, <c>ns</c> for clocks).</param>
/// <param name="Scale">Multiplier from sysfs <c>.scale</c> (1 for most events).</param>
/// <param name="Pmu">The PMU name from sysfs (<c>cpu</c>, <c>cpu_core</c>, <c>software</c>, …) or empty for generic types.</param>
public sealed record PerfEventSpec(
    string Name,
    uint Type,
    ulong Config,
    ulong Config1,
    ulong Config2,
    CounterKind Kind,
    string Unit = "events",
    double Scale = 1.0,
    string Pmu = "")
{
    /// <summary>A generalized hardware event.</summary>
    /// <param name="name">Its perf name.</param>
    /// <param name="id">Its id.</param>
    /// <returns>The spec.</returns>
    public static PerfEventSpec Hardware(string name, PerfHardwareCounterId id) =>
        new(name, (uint)PerfEventType.Hardware, (ulong)id, 0, 0, CounterKind.Hardware);

    /// <summary>A hardware cache event.</summary>
    /// <param name="name">Its perf name.</param>
    /// <param name="id">Its combined id.</param>
    /// <returns>The spec.</returns>
    public static PerfEventSpec Cache(string name, PerfCacheCounterId id) =>
        new(name, (uint)PerfEventType.HardwareCache, (ulong)id, 0, 0, CounterKind.HardwareCache);

    /// <summary>A software event.</summary>
    /// <param name="name">Its perf name.</param>
    /// <param name="id">Its id.</param>
    /// <param name="unit">The unit of one count.</param>
    /// <returns>The spec.</returns>
    public static PerfEventSpec Software(string name, PerfSoftwareCounterId id, string unit = "events") =>
        new(name, (uint)PerfEventType.Software, (ulong)id, 0, 0, CounterKind.Software, unit);

    /// <summary>
    /// The attribute that opens this event as a counting (non-sampling) event, at the full <see cref="Interop.PerfEventAttr.Size"/>.
    /// </summary>
    /// <param name="readFormat">PERF_FORMAT_* bits.</param>
    /// <param name="flags">perf_event_attr flag bits (<see cref="Interop.PerfEventAttr.FlagDisabled"/>, …).</param>
    internal Interop.PerfEventAttr CountingAttr(ulong readFormat, ulong flags) => new()
    {
        Type = Type,
        AttrSize = Interop.PerfEventAttr.Size,
        Config = Config,
        Config1 = Config1,
        Config2 = Config2,
        ReadFormat = readFormat,
        Flags = flags,
    };
}
