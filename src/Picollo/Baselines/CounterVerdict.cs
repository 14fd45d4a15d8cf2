namespace Picollo.Baselines;

/// <summary>The verdict of one counter against its baseline, with the numbers behind it.</summary>
/// <param name="Counter">The counter's name.</param>
/// <param name="Unit">The counter's unit.</param>
/// <param name="Status">The outcome.</param>
/// <param name="Statistic">The statistic compared.</param>
/// <param name="BaselineValue">The statistic in the baseline; <see langword="null"/> when nothing was compared.</param>
/// <param name="CurrentValue">The statistic now; <see langword="null"/> when nothing was compared.</param>
/// <param name="RelativeChange">(current − baseline) / baseline (0.123 = +12.3 %); infinite when the baseline is 0 and the current value is not; <see langword="null"/> when nothing was compared.</param>
/// <param name="CohensD">The effect size: the robust Cohen's d per operation, see <see cref="Metrics.HdrHistogramSummary.RobustCohensD"/>; <see langword="null"/> when nothing was compared.</param>
/// <param name="BaselineMachineId">The <see cref="MachineFingerprint.Id"/> of the entry compared with; <see langword="null"/> when none.</param>
/// <param name="Text">
/// One line for people, e.g. <c>task-clock P50 +12.3% (1,234 → 1,386 ns/op), d = 1.9: regressed</c> or
/// <c>cycles: no baseline for this machine (1 entry from another machine: different CPU model (A vs B))</c>.
/// </param>
internal sealed record CounterVerdict(
    string Counter,
    string Unit,
    CounterVerdictStatus Status,
    BaselineStatistic Statistic,
    double? BaselineValue,
    double? CurrentValue,
    double? RelativeChange,
    double? CohensD,
    string? BaselineMachineId,
    string Text)
{
    /// <summary><see langword="true"/> for <see cref="CounterVerdictStatus.Regressed"/>.</summary>
    public bool IsRegression => Status == CounterVerdictStatus.Regressed;

    /// <inheritdoc/>
    public override string ToString() => Text;
}
