using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;

namespace Picollo.PerfEvents;

/// <summary>
/// perf's generic event names, which resolve without sysfs: the hardware, cache and software events with perf's
/// aliases and every spelling of the cache events, each mapped to its <see cref="PerfEventSpec"/>.
/// </summary>
internal static class PerfGenericEventTable
{
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

    private static readonly FrozenDictionary<string, PerfEventSpec> s_byName = BuildGenericTable(out s_names);
    private static readonly string[] s_names;

    // Suggestions offer perf list's spellings, not every alias combination (no 'LLC-load-miss' next to 'LLC-load-misses').
    private static readonly string[] s_suggestable =
        [.. s_names, .. s_hardware.SelectMany(static h => h.Aliases), .. s_software.SelectMany(static s => s.Aliases)];

    /// <summary>The canonical spellings, in table order (hardware, software, cache).</summary>
    public static IReadOnlyList<string> Names => s_names;

    /// <summary>
    /// What an unknown name is compared with for suggestions: the canonical spellings and the hardware and software aliases.
    /// </summary>
    public static IReadOnlyList<string> Suggestable => s_suggestable;

    /// <summary>Looks a generic name up, case-insensitively, in any of perf's spellings.</summary>
    public static bool TryGet(string name, [NotNullWhen(true)] out PerfEventSpec? spec) => s_byName.TryGetValue(name, out spec);

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

    /// <summary>
    /// perf's canonical name of a cache event (<c>&lt;cache&gt;-&lt;op&gt;s</c> for accesses, <c>&lt;cache&gt;-&lt;op&gt;-misses</c> for
    /// misses).
    /// </summary>
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

    // Longer than 60 lines: one table in perf's own order (hardware, software, cache events, then perf's other cache
    // spellings), where the first entry of a name wins; split, the order that decides which event a name means would be
    // spread over several methods.
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
                    var id = (PerfCacheCounterId)(uint)(cache | op << 8 | result << 16);
                    var spec = PerfEventSpec.Cache(CacheName(cache, op, result), id);
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
}
