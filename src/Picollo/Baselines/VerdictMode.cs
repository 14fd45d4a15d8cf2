namespace Picollo.Baselines;

/// <summary>How a counter is compared with its baseline.</summary>
public enum VerdictMode
{
    /// <summary>Any change of the statistic is a regression (higher) or an improvement (lower): for deterministic counters.</summary>
    Exact,

    /// <summary>
    /// A regression needs both a practical change of the statistic and a statistical separation: the change must be
    /// z(confidence) times its noise (docs/VERDICTS.md).
    /// </summary>
    Statistical,
}
