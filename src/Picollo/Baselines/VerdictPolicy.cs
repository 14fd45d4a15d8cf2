using Picollo.Counters;

namespace Picollo.Baselines;

/// <summary>Chooses the <see cref="CounterVerdictRule"/> of each counter: a per-name override, else the default of its kind.</summary>
public sealed class VerdictPolicy
{
    // Deterministic on a given runtime and GC mode (allocated bytes need background GC off): any change is real.
    // JIT counts are included because they count the calling thread only and are 0 after warmup; a non-zero value
    // is a body that keeps generating code (dynamic methods, new generic instantiations), a real finding.
    // Lock contentions are process-wide and depend on what parallel tests do, so they are judged statistically.
    private static readonly HashSet<string> s_exact = new(StringComparer.OrdinalIgnoreCase)
    {
        RuntimeCounterSource.AllocatedBytes,
        RuntimeCounterSource.Gen0Collections,
        RuntimeCounterSource.Gen1Collections,
        RuntimeCounterSource.Gen2Collections,
        RuntimeCounterSource.JitMethods,
        RuntimeCounterSource.JitIlBytes,
    };

    private static readonly HashSet<string> s_timeLike = new(StringComparer.OrdinalIgnoreCase)
    {
        "cycles",
        "cpu-cycles",
        "ref-cycles",
        "bus-cycles",
        "task-clock",
        "cpu-clock",
    };

    private readonly Dictionary<string, CounterVerdictRule> _overrides;

    /// <summary>Creates a policy with per-counter overrides.</summary>
    /// <param name="overrides">Rules by counter name (case-insensitive), taking precedence over the defaults.</param>
    public VerdictPolicy(IReadOnlyDictionary<string, CounterVerdictRule>? overrides = null)
    {
        _overrides = new Dictionary<string, CounterVerdictRule>(StringComparer.OrdinalIgnoreCase);
        foreach ((string name, CounterVerdictRule rule) in overrides ?? new Dictionary<string, CounterVerdictRule>())
            _overrides[name] = rule;
    }

    /// <summary>The defaults only.</summary>
    public static VerdictPolicy Default { get; } = new();

    /// <summary>The rule for a counter.</summary>
    /// <param name="name">The counter's name.</param>
    /// <param name="kind">The counter's kind.</param>
    /// <returns>
    /// The override for <paramref name="name"/>; else <see cref="CounterVerdictRule.Exact"/> for allocated bytes, GC
    /// counts and JIT counts, <see cref="CounterVerdictRule.Instructions"/> for hardware instructions and branches,
    /// <see cref="CounterVerdictRule.Time"/> for cycles, TSC, task-clock and cpu-clock, <see cref="CounterVerdictRule.Other"/> otherwise.
    /// </returns>
    public CounterVerdictRule GetRule(string name, CounterKind kind)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_overrides.TryGetValue(name, out CounterVerdictRule? rule))
            return rule;

        if (kind == CounterKind.Runtime && s_exact.Contains(name))
            return CounterVerdictRule.Exact;

        if (kind == CounterKind.Tsc || ((kind is CounterKind.Hardware or CounterKind.Software) && s_timeLike.Contains(name)))
            return CounterVerdictRule.Time;

        return BaselinePortability.Of(kind, name) == CounterPortability.SameIsaAndRuntime ? CounterVerdictRule.Instructions : CounterVerdictRule.Other;
    }
}
