namespace Picollo.Baselines;

/// <summary>The statistic of a counter's distribution that a verdict's practical threshold (or exact comparison) looks at.</summary>
public enum BaselineStatistic
{
    /// <summary>The median: robust to the outliers of a busy machine. The default.</summary>
    P50,

    /// <summary>Percentile 90.</summary>
    P90,

    /// <summary>Percentile 99: tail behaviour; needs many samples to be stable.</summary>
    P99,

    /// <summary>The maximum.</summary>
    P100,

    /// <summary>The count-weighted mean: sees a change in how often an occasional event (an allocation) happens.</summary>
    Mean,
}
