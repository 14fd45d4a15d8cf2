using Picollo.Baselines.Rules;
using Picollo.Counters;

namespace Picollo.Baselines;

/// <summary>Chooses the <see cref="CounterVerdictRule"/> of each counter: a per-name override, else the default of its kind.</summary>
public sealed class VerdictPolicy
{
    private readonly Dictionary<string, CounterVerdictRule> _overrides;

    // Thresholds imposed on every statistical rule (ShouldNotRegress(maxChange: …)); null keeps each rule's own.
    private readonly double? _minRelativeChange;
    private readonly double? _confidence;
    private readonly double? _maxCohensD;

    /// <summary>Creates a policy with per-counter overrides.</summary>
    /// <param name="overrides">Rules by counter name (case-insensitive), taking precedence over the defaults.</param>
    public VerdictPolicy(IReadOnlyDictionary<string, CounterVerdictRule>? overrides = null)
    {
        _overrides = new Dictionary<string, CounterVerdictRule>(StringComparer.OrdinalIgnoreCase);
        foreach ((string name, CounterVerdictRule rule) in overrides ?? new Dictionary<string, CounterVerdictRule>())
            _overrides[name] = rule;
    }

    private VerdictPolicy(
        Dictionary<string, CounterVerdictRule> overrides, double? minRelativeChange, double? confidence, double? maxCohensD)
    {
        _overrides = overrides;
        _minRelativeChange = minRelativeChange;
        _confidence = confidence;
        _maxCohensD = maxCohensD;
    }

    /// <summary>The defaults only.</summary>
    public static VerdictPolicy Default { get; } = new();

    /// <summary>
    /// The tuning numbers of the stored-baseline rules and the machine's core count (docs/VERDICTS.md, "The policy in one
    /// table"); <see cref="JudgementPolicy.Default"/> unless <see cref="WithJudgement"/> replaced it.
    /// </summary>
    internal JudgementPolicy Judgement { get; private init; } = JudgementPolicy.Default;

    /// <summary>
    /// This policy with the thresholds of every statistical rule (defaults and overrides alike) replaced; exact rules stay
    /// exact. A statistical counter then regresses when its statistic rises by at least <paramref name="maxChange"/> and
    /// one measurement is at least <paramref name="confidence"/> sure that the rise is real.
    /// </summary>
    /// <param name="maxChange">The relative change that matters (0.05 = 5 %); <see langword="null"/> keeps each rule's.</param>
    /// <param name="confidence">How sure one measurement must be, in [0.5, 0.9999] (0.95 by default);
    /// <see langword="null"/> keeps each rule's.</param>
    /// <param name="maxCohensD">
    /// The Cohen's d gate of time-like counters (<see cref="CounterVerdictRule.MaxCohensD"/>): a regression also needs the
    /// floor's d above it; <see langword="null"/> keeps each rule's (none by default).
    /// </param>
    /// <returns>The new policy.</returns>
    /// <exception cref="ArgumentOutOfRangeException">A threshold is out of range, infinite or NaN.</exception>
    public VerdictPolicy WithThresholds(double? maxChange = null, double? confidence = null, double? maxCohensD = null)
    {
        if (maxChange is { } change && !(change >= 0 && double.IsFinite(change)))
            throw new ArgumentOutOfRangeException(nameof(maxChange), change, VerdictMessages.ChangeThresholdOutOfRange());
        if (confidence is { } c && !(c >= 0.5 && c <= 0.9999))
            throw new ArgumentOutOfRangeException(nameof(confidence), c, VerdictMessages.ConfidenceOutOfRange());
        if (maxCohensD is { } d && !(d > 0 && d <= 10))
            throw new ArgumentOutOfRangeException(nameof(maxCohensD), d, VerdictMessages.CohensDGateOutOfRange());

        return new VerdictPolicy(_overrides, maxChange ?? _minRelativeChange, confidence ?? _confidence, maxCohensD ?? _maxCohensD)
        {
            Judgement = Judgement,
        };
    }

    /// <summary>This policy with other tuning numbers or another core count: a verdict worked out as on another machine.</summary>
    /// <param name="judgement">The numbers.</param>
    /// <returns>The new policy, with the same rules and thresholds.</returns>
    internal VerdictPolicy WithJudgement(JudgementPolicy judgement)
    {
        ArgumentNullException.ThrowIfNull(judgement);
        return new VerdictPolicy(_overrides, _minRelativeChange, _confidence, _maxCohensD) { Judgement = judgement };
    }

    /// <summary>The rule for a counter.</summary>
    /// <param name="name">The counter's name.</param>
    /// <param name="kind">The counter's kind.</param>
    /// <returns> The override for <paramref name="name"/>; else <see cref="CounterVerdictRule.Exact"/> for allocated
    /// bytes and JIT counts, <see cref="CounterVerdictRule.Time"/> for cycles, TSC, task-clock and cpu-clock,
    /// <see cref="CounterVerdictRule.Occasional"/> for GC collections, lock contentions and page faults,
    /// <see cref="CounterVerdictRule.Instructions"/> for hardware instructions and branches,
    /// <see cref="CounterVerdictRule.SimulatedCount"/> and <see cref="CounterVerdictRule.SimulatedMisses"/> for simulated
    /// counters,
    /// <see cref="CounterVerdictRule.Other"/> otherwise. </returns>
    public CounterVerdictRule GetRule(string name, CounterKind kind)
    {
        CounterVerdictRule rule = GetBaseRule(name, kind);
        if (rule.Mode != VerdictMode.Statistical || (_minRelativeChange is null && _confidence is null && _maxCohensD is null))
            return rule;

        return rule with
        {
            MinRelativeChange = _minRelativeChange ?? rule.MinRelativeChange,
            Confidence = _confidence ?? rule.Confidence,
            MaxCohensD = _maxCohensD ?? rule.MaxCohensD,
        };
    }

    private CounterVerdictRule GetBaseRule(string name, CounterKind kind)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_overrides.TryGetValue(name, out CounterVerdictRule? rule))
            return rule;

        // The counter's nature comes from the one traits table (Counters/KnownCounters): deterministic counters are
        // exact; the rest are statistical, with a threshold that suits their noise.
        CounterTraits traits = KnownCounters.Of(name, kind);
        if (kind == CounterKind.Simulated)
        {
            return name is CounterNames.SimBranchMisses or CounterNames.SimL1Misses or CounterNames.SimCacheMisses
                ? CounterVerdictRule.SimulatedMisses
                : CounterVerdictRule.SimulatedCount;
        }

        return traits.IsDeterministic ? CounterVerdictRule.Exact
            : traits.IsTimeLike ? CounterVerdictRule.Time
            : traits.IsOccasional ? CounterVerdictRule.Occasional
            : traits.Portability == CounterPortability.SameIsaAndRuntime ? CounterVerdictRule.Instructions
            : CounterVerdictRule.Other;
    }
}
