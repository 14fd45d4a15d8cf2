namespace Picollo.Baselines;

/// <summary>How one counter is judged against its baseline.</summary>
/// <param name="Mode">Exact or statistical.</param>
/// <param name="Statistic">The statistic compared (and whose change is reported).</param>
/// <param name="MinCohensD">
/// <see cref="VerdictMode.Statistical"/>: the effect size (in pooled standard deviations) at or above which a
/// change is significant. Ignored by <see cref="VerdictMode.Exact"/>.
/// </param>
/// <param name="MinRelativeChange">
/// <see cref="VerdictMode.Statistical"/>: the relative change of <paramref name="Statistic"/> (0.05 = 5 %) at or above
/// which a change matters. Ignored by <see cref="VerdictMode.Exact"/>.
/// </param>
/// <remarks>
/// Higher is worse for every counter Picollo measures (time, cycles, instructions, misses, bytes), so a regression
/// is a rise and an improvement a fall. <see cref="Exact"/> and the P50 threshold of <see cref="Time"/> come from the
/// verdict-quality experiment of issue 5 (<c>bench/RESULTS.md</c>, section "verdicts": 50 unchanged runs with the other
/// CPU busy, injected +10 % allocations and +30 % work); the d thresholds and the other rules are still provisional.
/// </remarks>
public sealed record CounterVerdictRule(VerdictMode Mode, BaselineStatistic Statistic, double MinCohensD, double MinRelativeChange)
{
    /// <summary>Exact comparison of P50: deterministic runtime counters (allocated bytes, GC counts, JIT).</summary>
    public static CounterVerdictRule Exact { get; } = new(VerdictMode.Exact, BaselineStatistic.P50, 0, 0);

    /// <summary>Time-like counters (cycles, TSC, task-clock): d ≥ 0.8 (provisional) and P50 +8 %.</summary>
    /// <remarks>
    /// 8 %: of 50 unchanged runs of a ~100 ns allocating body with the other CPU busy, 49 moved P50 by −2.8 % to +5.6 %
    /// (so 5 % would flake) and +30 % work moved it by +12.7 % or more; 8 % sits between with room on both sides.
    /// </remarks>
    public static CounterVerdictRule Time { get; } = new(VerdictMode.Statistical, BaselineStatistic.P50, 0.8, 0.08);

    /// <summary>Instruction and branch counts, near-deterministic: d ≥ 0.8 and P50 +1 %. Provisional.</summary>
    public static CounterVerdictRule Instructions { get; } = new(VerdictMode.Statistical, BaselineStatistic.P50, 0.8, 0.01);

    /// <summary>Everything else (misses, faults, lock contentions), noisier: d ≥ 0.8 and P50 +10 %. Provisional.</summary>
    public static CounterVerdictRule Other { get; } = new(VerdictMode.Statistical, BaselineStatistic.P50, 0.8, 0.10);
}
