namespace Picollo.Measurement;

/// <summary>
/// What a paired comparison says about one counter, beyond a change of <see cref="PairedCounter.PracticalChange"/>
/// (docs/VERDICTS.md, "Paired comparisons").
/// </summary>
public enum PairedChange
{
    /// <summary>The interval does not settle it: wider than the practical change, or across it.</summary>
    Inconclusive,

    /// <summary>The whole interval lies within the practical change either way (exact counters: equal).</summary>
    Unchanged,

    /// <summary>The candidate counts more: the whole interval lies above 1 + the practical change (time: slower).</summary>
    Increased,

    /// <summary>The candidate counts less: the whole interval lies below 1 / (1 + the practical change) (time: faster).</summary>
    Decreased,
}
