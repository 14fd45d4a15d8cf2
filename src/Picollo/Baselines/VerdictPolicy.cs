using Picollo.Counters;

namespace Picollo.Baselines;

/// <summary>Chooses the <see cref="CounterVerdictRule"/> of each counter: a per-name override, else the default of its kind.</summary>
public sealed class VerdictPolicy
{
    private readonly Dictionary<string, CounterVerdictRule> _overrides;

    // Thresholds imposed on every statistical rule (ShouldNotRegress(maxCohensD: …)); null keeps each rule's own.
    private readonly double? _minCohensD;
    private readonly double? _minRelativeChange;

    /// <summary>Creates a policy with per-counter overrides.</summary>
    /// <param name="overrides">Rules by counter name (case-insensitive), taking precedence over the defaults.</param>
    public VerdictPolicy(IReadOnlyDictionary<string, CounterVerdictRule>? overrides = null)
    {
        _overrides = new Dictionary<string, CounterVerdictRule>(StringComparer.OrdinalIgnoreCase);
        foreach ((string name, CounterVerdictRule rule) in overrides ?? new Dictionary<string, CounterVerdictRule>())
            _overrides[name] = rule;
    }

    private VerdictPolicy(Dictionary<string, CounterVerdictRule> overrides, double? minCohensD, double? minRelativeChange)
    {
        _overrides = overrides;
        _minCohensD = minCohensD;
        _minRelativeChange = minRelativeChange;
    }

    /// <summary>The defaults only.</summary>
    public static VerdictPolicy Default { get; } = new();

    /// <summary>
    /// This policy with the thresholds of every statistical rule (defaults and overrides alike) replaced; exact rules stay
    /// exact. A statistical counter then regresses when its robust Cohen's d reaches <paramref name="maxCohensD"/> and its
    /// statistic rises by at least <paramref name="maxChange"/>.
    /// </summary>
    /// <param name="maxCohensD">The effect size, in pooled standard deviations, that counts as significant; <see langword="null"/> keeps each rule's.</param>
    /// <param name="maxChange">The relative change that matters (0.05 = 5 %); <see langword="null"/> keeps each rule's.</param>
    /// <returns>The new policy.</returns>
    /// <exception cref="ArgumentOutOfRangeException">A threshold is negative, infinite or NaN.</exception>
    public VerdictPolicy WithThresholds(double? maxCohensD = null, double? maxChange = null)
    {
        if (maxCohensD is { } d && !(d >= 0 && double.IsFinite(d)))
            throw new ArgumentOutOfRangeException(nameof(maxCohensD), d, "Cohen's d threshold must be a finite number of 0 or more (0.8 is a large effect, 0.5 medium).");
        if (maxChange is { } change && !(change >= 0 && double.IsFinite(change)))
            throw new ArgumentOutOfRangeException(nameof(maxChange), change, "The relative change threshold must be a finite number of 0 or more (0.05 = 5 %).");

        return new VerdictPolicy(_overrides, maxCohensD ?? _minCohensD, maxChange ?? _minRelativeChange);
    }

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
        CounterVerdictRule rule = GetBaseRule(name, kind);
        if (rule.Mode != VerdictMode.Statistical || (_minCohensD is null && _minRelativeChange is null))
            return rule;

        return rule with { MinCohensD = _minCohensD ?? rule.MinCohensD, MinRelativeChange = _minRelativeChange ?? rule.MinRelativeChange };
    }

    private CounterVerdictRule GetBaseRule(string name, CounterKind kind)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_overrides.TryGetValue(name, out CounterVerdictRule? rule))
            return rule;

        // The counter's nature comes from the one traits table (Counters/KnownCounters): deterministic counters are
        // exact; the rest are statistical, with a threshold that suits their noise.
        CounterTraits traits = KnownCounters.Of(name, kind);
        return traits.IsDeterministic ? CounterVerdictRule.Exact
            : traits.IsTimeLike ? CounterVerdictRule.Time
            : traits.Portability == CounterPortability.SameIsaAndRuntime ? CounterVerdictRule.Instructions
            : CounterVerdictRule.Other;
    }
}
