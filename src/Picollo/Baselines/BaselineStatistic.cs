namespace Picollo.Baselines;

/// <summary>The statistic of a counter's per-operation distribution that a verdict compares.</summary>
public enum BaselineStatistic
{
    /// <summary>The median. Deterministic counters compare it exactly; noisy counts (misses, faults) statistically.</summary>
    P50,

    /// <summary>Percentile 90.</summary>
    P90,

    /// <summary>Percentile 99: tail behaviour; needs many samples to be stable.</summary>
    P99,

    /// <summary>The maximum.</summary>
    P100,

    /// <summary>The count-weighted mean: sees a change in how often an occasional event (an allocation, a collection) happens.</summary>
    Mean,

    /// <summary>
    /// Percentile 10, the floor of the distribution: the default for time (TSC, cycles, task-clock). A busy machine, a
    /// garbage collection or a preemption only ever slows some samples down, which moves the upper part of the
    /// distribution and leaves the floor where the code puts it (docs/VERDICTS.md). Falls back to P25, then P50, when
    /// a run has too few samples to bound P10.
    /// </summary>
    P10,

    /// <summary>Percentile 25: a floor that needs fewer samples (19 rather than 51) but holds against less disturbance.</summary>
    P25,
}
