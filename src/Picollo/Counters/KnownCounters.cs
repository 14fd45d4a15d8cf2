using System.Collections.Immutable;

namespace Picollo.Counters;

/// <summary>
/// The one table of counter traits (docs/ARCHITECTURE.md, "Baselines and verdicts"): the default counter set, the verdict
/// rules and the portability of baselines all read it, so a counter's nature is stated once.
/// </summary>
internal static class KnownCounters
{
    // Row order is the order of the default set. Units match what the sources report (RuntimeCounterSource takes its
    // descriptors from here; the perf catalog spells the same units for the perf events).
    private static readonly ImmutableArray<(CounterTraits Traits, string[] Aliases)> s_rows =
    [
        (Time(CounterNames.Tsc, "ticks", CounterKind.Tsc, isDefault: true), []),

        // The portable clock: not in the table's default set, but in tsc's place where tsc cannot count (DefaultSetFor).
        (Time(CounterNames.Clock, "ns", CounterKind.Clock, isDefault: false) with { Portability = CounterPortability.SameClock }, []),
        (Exact(CounterNames.AllocatedBytes, "bytes"), []),

        // A collection lands in some samples and not others, so per sample they are not deterministic even when the
        // allocations are: judged on the collections per operation. Allocated bytes are the exact check.
        (Occasional(CounterNames.Gen0Collections, "collections", CounterKind.Runtime, CounterPortability.SameRuntime), []),
        (Occasional(CounterNames.Gen1Collections, "collections", CounterKind.Runtime, CounterPortability.SameRuntime), []),
        (Occasional(CounterNames.Gen2Collections, "collections", CounterKind.Runtime, CounterPortability.SameRuntime), []),

        // JIT counts are per thread and 0 once the body's code is final: a non-zero value is a body that keeps generating
        // code (dynamic methods, new generic instantiations), a real finding.
        (Exact(CounterNames.JitMethods, "methods"), []),
        (Exact(CounterNames.JitIlBytes, "bytes"), []),

        // Process-wide and driven by whatever else the process does (parallel tests).
        (Occasional(CounterNames.LockContentions, "contentions", CounterKind.Runtime, CounterPortability.SameRuntime), []),
        (Time(CounterNames.Cycles, "events", CounterKind.Hardware, isDefault: true), ["cpu-cycles"]),

        // Architectural: the same code retires the same instructions on any CPU with the same ISA extensions.
        (Architectural(CounterNames.Instructions, isDefault: true), []),
        (Other(CounterNames.BranchMisses, "events", CounterKind.Hardware, isDefault: true), []),
        (Other(CounterNames.CacheMisses, "events", CounterKind.Hardware, isDefault: true), []),
        (Time(CounterNames.TaskClock, "ns", CounterKind.Software, isDefault: true), []),
        (Occasional(CounterNames.PageFaults, "events", CounterKind.Software, CounterPortability.SameCpuModel), ["faults"]),
        (Architectural(CounterNames.Branches, isDefault: false), ["branch-instructions"]),
        (Time("ref-cycles", "events", CounterKind.Hardware, isDefault: false), []),
        (Time("bus-cycles", "events", CounterKind.Hardware, isDefault: false), []),
        (Time("cpu-clock", "ns", CounterKind.Software, isDefault: false), []),

        // Counted by Valgrind's callgrind in a worker process: the same on every host with the same simulator, runtime and
        // instruction set, never measured unless asked for (a worker costs seconds).
        (Simulated(CounterNames.SimInstructions), []),
        (Simulated(CounterNames.SimBranches), []),
        (Simulated(CounterNames.SimBranchMisses), []),
        (Simulated(CounterNames.SimL1Misses), []),
        (Simulated(CounterNames.SimCacheMisses), []),
        (Simulated(CounterNames.SimCycles), []),
    ];

    /// <summary>The simulated counters, in the table's order.</summary>
    public static ImmutableArray<string> SimulatedSet { get; } =
        [.. s_rows.Where(static r => r.Traits.Kind == CounterKind.Simulated).Select(static r => r.Traits.Name)];

    /// <summary>The canonical name of a simulated counter, or <see langword="null"/> when <paramref name="name"/> is not one.</summary>
    /// <param name="name">A counter name as a user writes it (case-insensitive).</param>
    /// <returns>The canonical name.</returns>
    public static string? SimulatedName(string name) =>
        SimulatedSet.FirstOrDefault(s => string.Equals(s, name, StringComparison.OrdinalIgnoreCase));

    private static readonly Lazy<ImmutableArray<string>> s_defaultSet = new(static () => TimePlatform.Current.DefaultCounters);

    /// <summary>
    /// The counters measured when a run names none, in report order, on this machine (<see cref="TimePlatform.Current"/>).
    /// </summary>
    public static ImmutableArray<string> DefaultSet => s_defaultSet.Value;

    /// <summary>
    /// The default set of a machine: the table's default rows, with the portable <c>clock</c> in <c>tsc</c>'s place when
    /// <c>tsc</c> cannot count (another OS or architecture, or no native library), so every machine measures time by default
    /// (docs/COUNTERS.md, "The portable clock").
    /// </summary>
    /// <param name="tscCounts">Whether <c>tsc</c> counts on the machine (<see cref="TimePlatform.TscUnsupportedReason"/> is null).</param>
    /// <returns>The names, in report order.</returns>
    public static ImmutableArray<string> DefaultSetFor(bool tscCounts) =>
        [.. s_rows.Where(static r => r.Traits.IsDefault)
            .Select(r => r.Traits.Name == CounterNames.Tsc && !tscCounts ? CounterNames.Clock : r.Traits.Name)];

    /// <summary>
    /// The traits of a counter: its row when the table names it (or an alias of it) with the same kind, else derived from the kind.
    /// </summary>
    /// <param name="name">The counter's name (case-insensitive).</param>
    /// <param name="kind">The counter's source family.</param>
    /// <returns>
    /// The traits; a counter unknown to the table is noisy, not time-like, and compares on the same CPU model only (the same runtime for a
    /// runtime counter).
    /// </returns>
    public static CounterTraits Of(string name, CounterKind kind)
    {
        ArgumentNullException.ThrowIfNull(name);
        foreach ((CounterTraits traits, string[] aliases) in s_rows)
        {
            if (traits.Kind == kind && (Matches(traits.Name, name) || aliases.Any(a => Matches(a, name))))
                return traits;
        }

        return kind == CounterKind.Runtime
            ? new CounterTraits(name, "events", kind, false, false, false, CounterPortability.SameRuntime, false)
            : new CounterTraits(
                name, "events", kind, false, kind is CounterKind.Tsc or CounterKind.Clock, false, CounterPortability.SameCpuModel, false);
    }

    /// <summary>The row of a counter the table names, by canonical name (case-insensitive).</summary>
    /// <param name="name">The canonical name.</param>
    /// <returns>The traits.</returns>
    /// <exception cref="KeyNotFoundException">The table does not name it.</exception>
    public static CounterTraits Get(string name)
    {
        foreach ((CounterTraits traits, _) in s_rows)
        {
            if (Matches(traits.Name, name))
                return traits;
        }

        throw new KeyNotFoundException($"'{name}' is not a counter of the traits table.");
    }

    private static bool Matches(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);

    private static CounterTraits Exact(string name, string unit) =>
        new(name, unit, CounterKind.Runtime, true, false, false, CounterPortability.SameRuntime, true);

    // Cycles, time and ticks depend on the micro-architecture and its clock.
    private static CounterTraits Time(string name, string unit, CounterKind kind, bool isDefault) =>
        new(name, unit, kind, false, true, false, CounterPortability.SameCpuModel, isDefault);

    // Architectural: the same code retires the same instructions on any CPU with the same ISA extensions.
    private static CounterTraits Architectural(string name, bool isDefault) =>
        new(name, "events", CounterKind.Hardware, false, false, false, CounterPortability.SameIsaAndRuntime, isDefault);

    // Misses depend on the micro-architecture (cache sizes, predictors) and on what else runs.
    private static CounterTraits Other(string name, string unit, CounterKind kind, bool isDefault) =>
        new(name, unit, kind, false, false, false, CounterPortability.SameCpuModel, isDefault);

    // Near-exact: judged against a tolerance from their spread across processes, never with time's allowances.
    private static CounterTraits Simulated(string name) =>
        new(name, "events", CounterKind.Simulated, false, false, false, CounterPortability.SameSimulator, false);

    private static CounterTraits Occasional(string name, string unit, CounterKind kind, CounterPortability portability) =>
        new(name, unit, kind, false, false, true, portability, true);
}
