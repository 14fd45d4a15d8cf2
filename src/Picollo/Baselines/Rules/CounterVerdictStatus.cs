namespace Picollo.Baselines.Rules;

/// <summary>The outcome of comparing one counter with its baseline.</summary>
internal enum CounterVerdictStatus
{
    /// <summary>No significant change.</summary>
    Pass,

    /// <summary>Significantly lower (better) than the baseline: passes, and the new result is offered as the baseline.</summary>
    Improved,

    /// <summary>Significantly higher (worse) than the baseline: fails.</summary>
    Regressed,

    /// <summary>No baseline file, or no entry of a comparable machine holds this counter: reported, not compared.</summary>
    NoBaseline,

    /// <summary>
    /// Regressed in one of two measurements only: the other did not regress on this counter. Passes with a notice; never
    /// fails a test.
    /// </summary>
    Unconfirmed,

    /// <summary>
    /// A comparable entry exists but cannot be compared (unit changed, per-operation vs per-sample-mean distributions,
    /// empty histogram).
    /// </summary>
    NotComparable,

    /// <summary>Compared, but the samples are too few to bound any quantile (fewer than 8): passes, with the reason.</summary>
    Inconclusive,
}
