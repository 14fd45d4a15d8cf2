namespace Picollo.Baselines;

/// <summary>How a counter is compared with its baseline.</summary>
public enum VerdictMode
{
    /// <summary>Any change of the statistic is a regression (higher) or an improvement (lower): for deterministic counters.</summary>
    Exact,

    /// <summary>A regression needs both an effect size (Cohen's d) and a practical change of the statistic above their thresholds.</summary>
    Statistical,
}
