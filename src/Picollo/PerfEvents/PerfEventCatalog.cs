using System.Collections.Frozen;
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
    private const int MaxSuggestions = 5;

    private static readonly Lazy<PerfEventCatalog> s_default = new(static () => new PerfEventCatalog(PerfSysfs.Default));

    private static readonly (string Name, string[] Aliases, PerfHardwareCounterId Id)[] s_hardware =
    [
        ("cycles", ["cpu-cycles"], PerfHardwareCounterId.CpuCycles),
        ("instructions", [], PerfHardwareCounterId.Instructions),
        ("cache-references", [], PerfHardwareCounterId.CacheReferences),
        ("cache-misses", [], PerfHardwareCounterId.CacheMisses),
        ("branches", ["branch-instructions"], PerfHardwareCounterId.BranchInstructions),
        ("branch-misses", [], PerfHardwareCounterId.BranchMisses),
        ("bus-cycles", [], PerfHardwareCounterId.BusCycles),
        ("stalled-cycles-frontend", ["idle-cycles-frontend"], PerfHardwareCounterId.StalledCyclesFrontend),
        ("stalled-cycles-backend", ["idle-cycles-backend"], PerfHardwareCounterId.StalledCyclesBackend),
        ("ref-cycles", [], PerfHardwareCounterId.RefCpuCycles),
    ];

    private static readonly (string Name, string[] Aliases, PerfSoftwareCounterId Id, string Unit)[] s_software =
    [
        ("cpu-clock", [], PerfSoftwareCounterId.CpuClock, "ns"),
        ("task-clock", [], PerfSoftwareCounterId.TaskClock, "ns"),
        ("page-faults", ["faults"], PerfSoftwareCounterId.PageFaults, "events"),
        ("context-switches", ["cs"], PerfSoftwareCounterId.ContextSwitches, "events"),
        ("cpu-migrations", ["migrations"], PerfSoftwareCounterId.CpuMigrations, "events"),
        ("minor-faults", [], PerfSoftwareCounterId.PageFaultsMin, "events"),
        ("major-faults", [], PerfSoftwareCounterId.PageFaultsMaj, "events"),
        ("alignment-faults", [], PerfSoftwareCounterId.AlignmentFaults, "events"),
        ("emulation-faults", [], PerfSoftwareCounterId.EmulationFaults, "events"),
        ("dummy", [], PerfSoftwareCounterId.Dummy, "events"),
    ];

    // perf's tables (tools/perf/util/evsel.c): the first entry of each row is the canonical spelling.
    private static readonly string[][] s_cacheNames =
    [
        ["L1-dcache", "l1-d", "l1d", "L1-data"],
        ["L1-icache", "l1-i", "l1i", "L1-instruction"],
        ["LLC", "L2"],
        ["dTLB", "d-tlb", "Data-TLB"],
        ["iTLB", "i-tlb", "Instruction-TLB"],
        ["branch", "branches", "bpu", "btb", "bpc"],
        ["node"],
    ];

    private static readonly string[][] s_cacheOps =
    [
        ["load", "loads", "read"],
        ["store", "stores", "write"],
        ["prefetch", "prefetches", "speculative-read", "speculative-load"],
    ];

    private static readonly string[][] s_cacheResults =
    [
        ["refs", "Reference", "ops", "access"],
        ["misses", "miss"],
    ];

    private static readonly FrozenDictionary<string, PerfEventSpec> s_generic = BuildGenericTable(out s_genericNames);
    private static readonly string[] s_genericNames;

    // Suggestions offer perf list's spellings, not every alias combination (no 'LLC-load-miss' next to 'LLC-load-misses').
    private static readonly string[] s_suggestable =
        [.. s_genericNames, .. s_hardware.SelectMany(static h => h.Aliases), .. s_software.SelectMany(static s => s.Aliases)];

    private readonly PerfSysfs _sysfs;
    private readonly IReadOnlyList<PerfPmu> _hybridCorePmus;

    internal PerfEventCatalog(PerfSysfs sysfs)
    {
        _sysfs = sysfs;
        Pmus = PerfPmu.Discover(sysfs);
        _hybridCorePmus = PerfPmu.HybridCorePmus(Pmus);
    }

    /// <summary>The catalog of this machine (its real sysfs), built once per process.</summary>
    public static PerfEventCatalog Default => s_default.Value;

    /// <summary>The generic event names perf knows without sysfs (hardware, cache, software; canonical spellings and aliases).</summary>
    public static IReadOnlyList<string> GenericNames => s_genericNames;

    /// <summary>The PMUs this catalog resolves <c>pmu/…/</c> terms and sysfs event names against.</summary>
    public IReadOnlyList<PerfPmu> Pmus { get; }

    /// <summary>Whether generic hardware names expand to one event per hybrid core PMU (<c>cpu_core</c>, <c>cpu_atom</c>).</summary>
    public bool IsHybrid => _hybridCorePmus.Count > 0;

    /// <summary>perf's canonical name of a generalized hardware event.</summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>cycles</c>, <c>branch-misses</c>.</returns>
    public static string GetName(PerfHardwareCounterId id) =>
        s_hardware.First(h => h.Id == id).Name;

    /// <summary>perf's canonical name of a software event.</summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>task-clock</c>, <c>page-faults</c>.</returns>
    public static string GetName(PerfSoftwareCounterId id) =>
        s_software.First(s => s.Id == id).Name;

    /// <summary>perf's canonical name of a cache event (<c>&lt;cache&gt;-&lt;op&gt;s</c> for accesses, <c>&lt;cache&gt;-&lt;op&gt;-misses</c> for misses).</summary>
    /// <param name="id">The event.</param>
    /// <returns>E.g. <c>L1-dcache-loads</c>, <c>LLC-load-misses</c>, <c>dTLB-prefetches</c>.</returns>
    public static string GetName(PerfCacheCounterId id)
    {
        ulong value = (ulong)id;
        int cache = (int)(value & 0xFF), op = (int)((value >> 8) & 0xFF), result = (int)((value >> 16) & 0xFF);
        if (cache >= s_cacheNames.Length || op >= s_cacheOps.Length || result >= s_cacheResults.Length)
            throw new ArgumentOutOfRangeException(nameof(id), id, "Not a perf hardware cache event.");
        return CacheName(cache, op, result);
    }

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
            throw new PerfEventNameException("The perf event name is empty. Use a name like 'cycles' or 'task-clock' (see 'perf list').", name, [], 0);

        if (text.Contains('/', StringComparison.Ordinal))
            return ResolvePmuTerms(text);

        if (s_generic.TryGetValue(text, out PerfEventSpec? generic))
            return ExpandHybrid(generic);

        if (TryParseRaw(text, out ulong raw))
            return [new PerfEventSpec(text.ToLowerInvariant(), (uint)PerfEventType.Raw, raw, 0, 0, CounterKind.Raw)];

        var fromSysfs = new List<PerfEventSpec>();
        foreach (PerfPmu pmu in Pmus)
        {
            if (pmu.TryGetEvent(text, out PerfPmuEvent? alias))
                fromSysfs.Add(ResolveAlias(pmu, alias, text));
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
    /// <exception cref="PerfEventNameException">As <see cref="Resolve"/>; or the PMUs publishing the name disagree on its scale or unit, so their counts cannot be summed.</exception>
    internal PerfEventCounterRequest ResolveCounter(string name)
    {
        IReadOnlyList<PerfEventSpec> specs = Resolve(name);
        if (specs.Count == 1)
            return PerfEventCounterRequest.Single(specs[0]);

        PerfEventSpec first = specs[0];
        if (specs.Any(s => s.Scale != first.Scale || s.Unit != first.Unit))
        {
            string parts = string.Join(", ", specs.Select(static s => string.Create(CultureInfo.InvariantCulture, $"{s.Name} ({s.Scale} {s.Unit})")));
            throw new PerfEventNameException(
                $"The perf event '{name}' maps to events with different scales or units ({parts}): their counts cannot be summed; name one of them.",
                name,
                [.. specs.Select(static s => s.Name)],
                null);
        }

        // A generic name expanded per core PMU stands for the generic event; otherwise the PMUs share a sysfs event name ('pmu/alias/').
        PerfEventSpec identity = s_generic.TryGetValue(name.Trim(), out PerfEventSpec? generic)
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
            $"The perf event '{name}' maps to {specs.Count.ToString(CultureInfo.InvariantCulture)} events ({names}): name one of them, or use Resolve and sum their counts (PerfEventCounterSessionBuilder.WithCounter(name) does).",
            name,
            [.. specs.Select(static s => s.Name)],
            null);
    }

    /// <summary>Every name this catalog resolves without parameters: the generic names, then <c>pmu/event/</c> for each sysfs event.</summary>
    /// <returns>The names, generic ones first.</returns>
    public IReadOnlyList<string> GetKnownNames() =>
        [.. s_genericNames, .. Pmus.SelectMany(static p => p.EventNames.Select(e => p.Name + "/" + e + "/"))];

    private static FrozenDictionary<string, PerfEventSpec> BuildGenericTable(out string[] names)
    {
        var table = new Dictionary<string, PerfEventSpec>(StringComparer.OrdinalIgnoreCase);
        var listed = new List<string>();
        void Add(string key, PerfEventSpec spec)
        {
            // First wins, as in perf: the hardware 'branch-misses' shadows the cache alias branch + misses.
            if (table.TryAdd(key, spec) && string.Equals(key, spec.Name, StringComparison.Ordinal))
                listed.Add(key);
        }

        foreach ((string name, string[] aliases, PerfHardwareCounterId id) in s_hardware)
        {
            var spec = PerfEventSpec.Hardware(name, id);
            Add(name, spec);
            foreach (string alias in aliases)
                Add(alias, spec);
        }

        foreach ((string name, string[] aliases, PerfSoftwareCounterId id, string unit) in s_software)
        {
            var spec = PerfEventSpec.Software(name, id, unit);
            Add(name, spec);
            foreach (string alias in aliases)
                Add(alias, spec);
        }

        for (int cache = 0; cache < s_cacheNames.Length; cache++)
        {
            for (int op = 0; op < s_cacheOps.Length; op++)
            {
                for (int result = 0; result < s_cacheResults.Length; result++)
                {
                    var spec = PerfEventSpec.Cache(CacheName(cache, op, result), (PerfCacheCounterId)(uint)(cache | op << 8 | result << 16));
                    Add(spec.Name, spec);
                }
            }
        }

        // perf's other spellings: <cache>-<op>-<result>, <cache>-<op> (an access), <cache>-<result> (a load).
        for (int cache = 0; cache < s_cacheNames.Length; cache++)
        {
            foreach (string c in s_cacheNames[cache])
            {
                for (int op = 0; op < s_cacheOps.Length; op++)
                {
                    foreach (string o in s_cacheOps[op])
                    {
                        Add(c + "-" + o, CacheSpec(table, cache, op, 0));
                        for (int result = 0; result < s_cacheResults.Length; result++)
                        {
                            foreach (string r in s_cacheResults[result])
                                Add(c + "-" + o + "-" + r, CacheSpec(table, cache, op, result));
                        }
                    }
                }

                for (int result = 0; result < s_cacheResults.Length; result++)
                {
                    foreach (string r in s_cacheResults[result])
                        Add(c + "-" + r, CacheSpec(table, cache, 0, result));
                }
            }
        }

        names = [.. listed];
        return table.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);

        static PerfEventSpec CacheSpec(Dictionary<string, PerfEventSpec> table, int cache, int op, int result) =>
            table[CacheName(cache, op, result)];
    }

    private static string CacheName(int cache, int op, int result) =>
        result == 0
            ? s_cacheNames[cache][0] + "-" + s_cacheOps[op][1]
            : s_cacheNames[cache][0] + "-" + s_cacheOps[op][0] + "-" + s_cacheResults[result][0];

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

    private static PerfEventSpec ForCorePmu(PerfEventSpec generic, PerfPmu pmu) =>
        generic with
        {
            Name = pmu.Name + "/" + generic.Name + "/",
            Config = (ulong)pmu.Type << PmuTypeShift | generic.Config,
            Pmu = pmu.Name,
        };

    private List<PerfEventSpec> ResolvePmuTerms(string text)
    {
        int slash = text.IndexOf('/', StringComparison.Ordinal);
        string pmuName = text[..slash];
        if (pmuName.Length == 0)
            throw Malformed(text, 0, "the PMU name before the first '/' is missing (write 'pmu/terms/', e.g. 'cpu/event=0x3c/')");
        int close = text.IndexOf('/', slash + 1);
        if (close < 0)
            throw Malformed(text, text.Length, "the closing '/' is missing (write 'pmu/terms/', e.g. 'cpu/event=0x3c/')");
        if (close != text.Length - 1)
            throw Malformed(text, close + 1, $"'{text[(close + 1)..]}' after the closing '/' is not supported (event modifiers such as ':u' or 'u' are not; user-only counting is the session's WithKernel(false))");
        if (!PerfPmu.TryFind(Pmus, pmuName, out PerfPmu? pmu))
        {
            List<string> closest = Closest(pmuName, Pmus.Select(static p => p.Name));
            throw new PerfEventNameException(
                $"Unknown PMU '{pmuName}' in perf event '{text}'. PMUs of this machine: {ListOrNone(Pmus.Select(static p => p.Name))} (from {_sysfs.Root}).",
                text,
                closest,
                0);
        }

        string body = text[(slash + 1)..close];
        if (body.Length == 0)
            throw Malformed(text, slash + 1, "no term between the slashes (write e.g. 'event=0x3c,umask=0x00' or an event name from " + EventsFolder(pmu) + ")");

        // A lone generic name inside a core PMU (cpu_core/cycles/) is the generic event bound to that PMU.
        if (pmu.IsCpu && !body.Contains(',', StringComparison.Ordinal) && !pmu.TryGetEvent(body, out _)
            && s_generic.TryGetValue(body, out PerfEventSpec? generic)
            && generic.Type is (uint)PerfEventType.Hardware or (uint)PerfEventType.HardwareCache)
        {
            return [PerfPmu.IsHybridCorePmuName(pmu.Name) ? ForCorePmu(generic, pmu) : generic with { Name = pmu.Name + "/" + generic.Name + "/", Pmu = pmu.Name }];
        }

        var builder = new TermBuilder(pmu);
        Apply(builder, text, body, slash + 1, fromAlias: null);
        ThrowIfParameterMissing(builder, text);
        string specName = builder.CustomName ?? pmu.Name + "/" + body + "/";
        return [builder.ToSpec(specName)];
    }

    private PerfEventSpec ResolveAlias(PerfPmu pmu, PerfPmuEvent alias, string text)
    {
        var builder = new TermBuilder(pmu);
        ApplyAlias(builder, text, alias, 0);
        ThrowIfParameterMissing(builder, text);
        return builder.ToSpec(pmu.Name + "/" + alias.Name + "/");
    }

    private void ApplyAlias(TermBuilder builder, string text, PerfPmuEvent alias, int position)
    {
        Apply(builder, text, alias.Terms, position, alias);
        builder.Scale = alias.Scale;
        builder.Unit = alias.Unit ?? builder.Unit;
    }

    private void Apply(TermBuilder builder, string text, string terms, int offset, PerfPmuEvent? fromAlias)
    {
        int start = 0;
        while (start <= terms.Length)
        {
            int comma = terms.IndexOf(',', start);
            int end = comma < 0 ? terms.Length : comma;
            // Positions in an alias's own terms point at the alias in the caller's text: that is what the user wrote.
            int position = fromAlias is null ? offset + start : offset;
            ApplyTerm(builder, text, terms[start..end].Trim(), position, fromAlias);
            if (comma < 0)
                break;
            start = comma + 1;
        }
    }

    private void ApplyTerm(TermBuilder builder, string text, string term, int position, PerfPmuEvent? fromAlias)
    {
        PerfPmu pmu = builder.Pmu;
        string where = fromAlias is null ? "" : $" (in sysfs event '{fromAlias.Name}': {EventsFolder(pmu)}{fromAlias.Name})";
        if (term.Length == 0)
            throw Malformed(text, position, "an empty term (two commas in a row or a trailing comma)" + where);

        int equals = term.IndexOf('=', StringComparison.Ordinal);
        string key = (equals < 0 ? term : term[..equals]).Trim();
        string? valueText = equals < 0 ? null : term[(equals + 1)..].Trim();
        if (key.Length == 0)
            throw Malformed(text, position, $"the term '{term}' has no name before '='" + where);

        if (string.Equals(key, "name", StringComparison.OrdinalIgnoreCase))
        {
            if (string.IsNullOrEmpty(valueText))
                throw Malformed(text, position, "'name=' needs a value" + where);
            builder.CustomName = valueText;
            return;
        }

        int word = key.ToLowerInvariant() switch
        {
            "config" => 0,
            "config1" => 1,
            "config2" => 2,
            _ => -1,
        };
        if (word >= 0)
        {
            builder.Words[word] = ParseValue(text, position, key, valueText, where);
            return;
        }

        if (pmu.Formats.TryGetValue(key, out PerfFormatField? field))
        {
            // An alias's 'field=?' is a parameter the user must supply in a later term (perf's hv_24x7 'domain=?').
            if (fromAlias is not null && valueText == "?")
            {
                builder.MissingParameters[field.Name] = (position, fromAlias.Name);
                return;
            }

            builder.MissingParameters.Remove(field.Name);
            // A flag such as 'inv', 'edge' or 'any' written alone means 1, as in perf.
            ulong value = valueText is null ? 1 : ParseValue(text, position, key, valueText, where);
            if (!field.Fits(value))
            {
                string problem = string.Create(
                    CultureInfo.InvariantCulture,
                    $"the value 0x{value:x} of '{field.Name}' does not fit in its {field.Width} bits ({_sysfs.Root}/{pmu.Name}/format/{field.Name})");
                throw Malformed(text, position, problem + where);
            }

            // Later terms override earlier ones (user terms override an alias's), so clear the field first.
            builder.Words[field.Word] = (builder.Words[field.Word] & ~field.Mask) | field.Place(value);
            return;
        }

        if (fromAlias is null && pmu.TryGetEvent(key, out PerfPmuEvent? alias))
        {
            if (valueText is not null)
                throw Malformed(text, position, $"'{key}' is a sysfs event of {pmu.Name}, it takes no value");
            ApplyAlias(builder, text, alias, position);
            return;
        }

        List<string> closest = Closest(key, pmu.Formats.Keys.Concat(pmu.EventNames).Concat(["config", "config1", "config2", "name"]));
        string formats = ListOrNone(pmu.Formats.Keys.Order(StringComparer.Ordinal));
        throw new PerfEventNameException(
            string.Create(CultureInfo.InvariantCulture, $"Unknown term '{key}' at position {position} in perf event '{text}'{where}: {pmu.Name} has no such format field or event. ")
            + (closest.Count > 0 ? $"Closest: {string.Join(", ", closest)}. " : "")
            + $"Format fields of {pmu.Name}: {formats}; its events are in {EventsFolder(pmu)} (or run 'perf list pmu').",
            text,
            closest,
            position);
    }

    private void ThrowIfParameterMissing(TermBuilder builder, string text)
    {
        if (builder.MissingParameters.Count > 0)
        {
            (string field, (int position, string alias)) = builder.MissingParameters.First();
            throw Malformed(text, position, $"'{field}' is a parameter the sysfs event '{alias}' requires: add the term '{field}=<value>', e.g. '{builder.Pmu.Name}/{alias},{field}=0/' ({EventsFolder(builder.Pmu)}{alias})");
        }
    }

    private static ulong ParseValue(string text, int position, string key, string? valueText, string where)
    {
        if (string.IsNullOrEmpty(valueText))
            throw Malformed(text, position, $"'{key}=' is missing its value" + where);
        if (valueText == "?")
            throw Malformed(text, position, $"'{key}=?' is only meaningful in a sysfs event: write '{key}=<value>'" + where);
        bool parsed = valueText.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            ? ulong.TryParse(valueText.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out ulong value)
            : ulong.TryParse(valueText, NumberStyles.None, CultureInfo.InvariantCulture, out value);
        if (!parsed)
            throw Malformed(text, position, $"'{valueText}' is not a number for '{key}' (write decimal or 0x-prefixed hex)" + where);
        return value;
    }

    private static PerfEventNameException Malformed(string text, int position, string problem) =>
        new(string.Create(CultureInfo.InvariantCulture, $"Malformed perf event '{text}' at position {position}: {problem}."), text, [], position);

    private PerfEventNameException Unknown(string text, string original)
    {
        List<string> closest = Closest(text, s_suggestable.Concat(Pmus.SelectMany(static p => p.EventNames)));
        // perf's ':u'/':k' modifiers have no place in a spec: the session's WithKernel decides what is counted.
        string modifiers = text.Contains(':', StringComparison.Ordinal)
            ? "Event modifiers such as ':u' or ':k' are not part of the name (the session's WithKernel decides). "
            : "";
        return new PerfEventNameException(
            $"Unknown perf event '{text}'. {modifiers}Closest valid names: {ListOrNone(closest)}. "
            + $"Run 'perf list' for the events of this machine, or look in {_sysfs.Root}/<pmu>/events/ "
            + "(use them as 'pmu/event/', or write 'pmu/event=0x..,umask=0x../' or a raw code 'rUUEE').",
            original,
            closest,
            null);
    }

    private string EventsFolder(PerfPmu pmu) => _sysfs.Root + "/" + pmu.Name + "/events/";

    private static string ListOrNone(IEnumerable<string> names)
    {
        string list = string.Join(", ", names);
        return list.Length == 0 ? "(none)" : list;
    }

    private static List<string> Closest(string input, IEnumerable<string> candidates) =>
        [.. candidates
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .Select(c => (Name: c, Distance: EditDistance(input, c)))
            .OrderBy(static c => c.Distance)
            .ThenBy(static c => c.Name, StringComparer.Ordinal)
            .Take(MaxSuggestions)
            .Select(static c => c.Name)];

    /// <summary>Levenshtein distance, ignoring case, with two rolling rows.</summary>
    internal static int EditDistance(string a, string b)
    {
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (int j = 0; j <= b.Length; j++)
            previous[j] = j;
        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            char ca = char.ToLowerInvariant(a[i - 1]);
            for (int j = 1; j <= b.Length; j++)
            {
                int substitution = previous[j - 1] + (ca == char.ToLowerInvariant(b[j - 1]) ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j], current[j - 1]) + 1);
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }

    /// <summary>The config words, name, scale and unit accumulated while applying the terms of one PMU event.</summary>
    private sealed class TermBuilder(PerfPmu pmu)
    {
        public PerfPmu Pmu { get; } = pmu;

        public ulong[] Words { get; } = new ulong[3];

        public string? CustomName { get; set; }

        public double Scale { get; set; } = 1.0;

        public string Unit { get; set; } = "events";

        public Dictionary<string, (int Position, string Alias)> MissingParameters { get; } = new(StringComparer.OrdinalIgnoreCase);

        public PerfEventSpec ToSpec(string name) =>
            new(name, Pmu.Type, Words[0], Words[1], Words[2], Pmu.Type == (uint)PerfEventType.Software ? CounterKind.Software : CounterKind.Raw, Unit, Scale, Pmu.Name);
    }
}
