using System.Globalization;
using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>
/// Resolves event names the way <c>perf stat -e</c> does, case-insensitively, into <see cref="PerfEventSpec"/>s:
/// generic hardware, cache and software names (with perf's aliases), raw <c>rNNNN</c> codes,
/// <c>pmu/term=value,…/</c> terms placed by the PMU's sysfs format files, and sysfs event names
/// (<c>pmu/name/</c> or bare). On hybrid CPUs a generic hardware or cache name yields one spec per core PMU,
/// whose counts the session sums.
/// </summary>
public sealed class PerfEventCatalog
{
    private const int PmuTypeShift = 32; // PERF_PMU_TYPE_SHIFT: the extended type of hardware/cache events on hybrid CPUs.

    private static readonly Lazy<PerfEventCatalog> s_default = new(static () => new PerfEventCatalog(PerfSysfs.Default));

    private readonly PerfSysfs _sysfs;
    private readonly IReadOnlyList<PerfPmu> _hybridCorePmus;
    private readonly PerfEventTermParser _terms;

    internal PerfEventCatalog(PerfSysfs sysfs)
    {
        _sysfs = sysfs;
        Pmus = PerfPmu.Discover(sysfs);
        _hybridCorePmus = PerfPmu.HybridCorePmus(Pmus);
        _terms = new PerfEventTermParser(sysfs, Pmus);
    }

    /// <summary>The catalog of this machine (its real sysfs), built once per process.</summary>
    public static PerfEventCatalog Default => s_default.Value;

    /// <summary>The generic event names perf knows without sysfs (hardware, cache, software; canonical spellings and aliases).</summary>
    public static IReadOnlyList<string> GenericNames => PerfGenericEventTable.Names;

    /// <summary>The PMUs this catalog resolves <c>pmu/…/</c> terms and sysfs event names against.</summary>
    public IReadOnlyList<PerfPmu> Pmus { get; }

    /// <summary>Whether generic hardware names expand to one event per hybrid core PMU (<c>cpu_core</c>, <c>cpu_atom</c>).</summary>
    public bool IsHybrid => _hybridCorePmus.Count > 0;

    /// <summary>perf's canonical name of a generalized hardware event.</summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>cycles</c>, <c>branch-misses</c>.</returns>
    public static string GetName(PerfHardwareCounterId id) => PerfGenericEventTable.GetName(id);

    /// <summary>perf's canonical name of a software event.</summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>task-clock</c>, <c>page-faults</c>.</returns>
    public static string GetName(PerfSoftwareCounterId id) => PerfGenericEventTable.GetName(id);

    /// <summary>
    /// perf's canonical name of a cache event (<c>&lt;cache&gt;-&lt;op&gt;s</c> for accesses, <c>&lt;cache&gt;-&lt;op&gt;-misses</c> for
    /// misses).
    /// </summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>L1-dcache-loads</c>, <c>LLC-load-misses</c>, <c>dTLB-prefetches</c>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="id"/> is not a cache × op × result perf knows.</exception>
    public static string GetName(PerfCacheCounterId id) => PerfGenericEventTable.GetName(id);

    /// <summary>
    /// Resolves a name into the events to open: one for most names, one per core PMU for a generic hardware or cache
    /// name on a hybrid CPU (their counts are to be summed).
    /// </summary>
    /// <param name="name">
    /// <c>cycles</c>, <c>L1-dcache-load-misses</c>, <c>task-clock</c>, <c>r01c2</c>, <c>cpu/event=0x3c,umask=0x00/</c>,
    /// <c>cpu/cycles-ct/</c>, <c>cycles-ct</c>, … (case-insensitive).
    /// </param>
    /// <returns>At least one spec.</returns>
    /// <exception cref="PerfEventNameException">The name is unknown (the message lists close matches) or malformed.</exception>
    public IReadOnlyList<PerfEventSpec> Resolve(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        string text = name.Trim();
        if (text.Length == 0)
        {
            throw new PerfEventNameException(
                "The perf event name is empty. Use a name like 'cycles' or 'task-clock' (see 'perf list').", name, [], 0);
        }

        if (text.Contains('/', StringComparison.Ordinal))
            return _terms.Resolve(text);

        if (PerfGenericEventTable.TryGet(text, out PerfEventSpec? generic))
            return ExpandHybrid(generic);

        if (TryParseRaw(text, out ulong raw))
            return [new PerfEventSpec(text.ToLowerInvariant(), (uint)PerfEventType.Raw, raw, 0, 0, CounterKind.Raw)];

        var fromSysfs = new List<PerfEventSpec>();
        foreach (PerfPmu pmu in Pmus)
        {
            if (pmu.TryGetEvent(text, out PerfPmuEvent? alias))
                fromSysfs.Add(_terms.ResolveAlias(pmu, alias, text));
        }

        if (fromSysfs.Count > 0)
            return fromSysfs;

        throw Unknown(text, name);
    }

    /// <summary>
    /// Resolves a name into one session counter: the events of <see cref="Resolve"/>, summed, standing for the
    /// generic event on a hybrid CPU (so <c>Counters.Hardware.CpuCycles</c> finds it) or for the sysfs event
    /// name when several PMUs publish it.
    /// </summary>
    /// <exception cref="PerfEventNameException">
    /// As <see cref="Resolve"/>; or the PMUs publishing the name disagree on its scale or unit, so their counts cannot be summed.
    /// </exception>
    internal PerfEventCounterRequest ResolveCounter(string name)
    {
        IReadOnlyList<PerfEventSpec> specs = Resolve(name);
        if (specs.Count == 1)
            return PerfEventCounterRequest.Single(specs[0]);

        PerfEventSpec first = specs[0];
        if (specs.Any(s => s.Scale != first.Scale || s.Unit != first.Unit))
        {
            string parts = string.Join(
                ", ", specs.Select(static s => string.Create(CultureInfo.InvariantCulture, $"{s.Name} ({s.Scale} {s.Unit})")));
            throw new PerfEventNameException(
                PerfEventNameMessages.ScalesDiffer(name, parts),
                name,
                [.. specs.Select(static s => s.Name)],
                null);
        }

        // A generic name expanded per core PMU stands for the generic event; otherwise the PMUs share a sysfs event name ('pmu/alias/').
        PerfEventSpec identity = PerfGenericEventTable.TryGet(name.Trim(), out PerfEventSpec? generic)
            ? generic
            : first with { Name = first.Name[(first.Pmu.Length + 1)..^1], Pmu = "" };
        return new PerfEventCounterRequest(identity, [.. specs]);
    }

    /// <summary>The session counter of a generic event: the event itself, or on a hybrid CPU one event per core PMU, summed.</summary>
    internal PerfEventCounterRequest ForGeneric(PerfEventSpec generic)
    {
        IReadOnlyList<PerfEventSpec> specs = ExpandHybrid(generic);
        return specs.Count == 1 ? PerfEventCounterRequest.Single(specs[0]) : new PerfEventCounterRequest(generic, [.. specs]);
    }

    /// <summary>Resolves a name that must map to exactly one event.</summary>
    /// <param name="name">See <see cref="Resolve"/>.</param>
    /// <returns>The spec.</returns>
    /// <exception cref="PerfEventNameException">The name is unknown or malformed, or it maps to several events (hybrid CPU).</exception>
    public PerfEventSpec ResolveSingle(string name)
    {
        IReadOnlyList<PerfEventSpec> specs = Resolve(name);
        if (specs.Count == 1)
            return specs[0];
        string names = string.Join(", ", specs.Select(static s => s.Name));
        throw new PerfEventNameException(
            PerfEventNameMessages.MapsToSeveralEvents(name, specs.Count, names),
            name,
            [.. specs.Select(static s => s.Name)],
            null);
    }

    /// <summary>
    /// Every name this catalog resolves without parameters: the generic names, then <c>pmu/event/</c> for each sysfs event.
    /// </summary>
    /// <returns>The names, generic ones first.</returns>
    public IReadOnlyList<string> GetKnownNames() =>
        [.. PerfGenericEventTable.Names, .. Pmus.SelectMany(static p => p.EventNames.Select(e => p.Name + "/" + e + "/"))];

    /// <summary>
    /// What an unknown name is compared with for suggestions: the generic names and aliases, then this machine's sysfs event names.
    /// </summary>
    /// <returns>The names.</returns>
    internal IEnumerable<string> SuggestableNames() => PerfGenericEventTable.Suggestable.Concat(Pmus.SelectMany(static p => p.EventNames));

    private static bool TryParseRaw(string text, out ulong config)
    {
        config = 0;
        return text.Length is >= 2 and <= 17
            && (text[0] is 'r' or 'R')
            && ulong.TryParse(text.AsSpan(1), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out config);
    }

    private IReadOnlyList<PerfEventSpec> ExpandHybrid(PerfEventSpec generic)
    {
        if (_hybridCorePmus.Count == 0 || generic.Type is not ((uint)PerfEventType.Hardware or (uint)PerfEventType.HardwareCache))
            return [generic];
        return [.. _hybridCorePmus.Select(p => ForCorePmu(generic, p))];
    }

    /// <summary>
    /// The generic hardware or cache event bound to one core PMU of a hybrid CPU, through the extended type in config's high bits.
    /// </summary>
    internal static PerfEventSpec ForCorePmu(PerfEventSpec generic, PerfPmu pmu) =>
        generic with
        {
            Name = pmu.Name + "/" + generic.Name + "/",
            Config = (ulong)pmu.Type << PmuTypeShift | generic.Config,
            Pmu = pmu.Name,
        };

    private PerfEventNameException Unknown(string text, string original)
    {
        List<string> closest = PerfEventSuggestions.Closest(text, SuggestableNames());
        return new PerfEventNameException(
            PerfEventNameMessages.UnknownEvent(text, closest, _sysfs.Root),
            original,
            closest,
            null)
        {
            IsUnknownName = true,
        };
    }
}
