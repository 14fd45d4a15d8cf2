using System.Globalization;
using Picollo.Baselines.Records;

namespace Picollo.Baselines.Rules;

/// <summary>The verdict of one counter against its baseline, with the numbers behind it.</summary>
/// <param name="Counter">The counter's name.</param>
/// <param name="Unit">The counter's unit.</param>
/// <param name="Status">The outcome.</param>
/// <param name="Mode">Exact or statistical: an exact verdict has no effect size.</param>
/// <param name="Statistic">The statistic compared.</param>
/// <param name="BaselineValue">The statistic in the baseline, per operation; <see langword="null"/> when nothing was compared.</param>
/// <param name="CurrentValue">The statistic now, per operation; <see langword="null"/> when nothing was compared.</param>
/// <param name="RelativeChange">(current − baseline) / baseline (0.123 = +12.3 %); infinite when the baseline is 0 and
/// the current value is not; <see langword="null"/> when nothing was compared.</param>
/// <param name="EffectSize">
/// The effect size that decided a statistical verdict (<see cref="EffectSizeName"/>): the change of the statistic on a log
/// scale over its noise (both sides' precision and the run-to-run drift); <see langword="null"/> for an exact verdict and
/// when nothing was compared.
/// </param>
/// <param name="BaselineMachineId">The <see cref="MachineFingerprint.Id"/> of the entry compared with;
/// <see langword="null"/> when none.</param>
/// <param name="Reason">Why nothing was compared (no baseline for this machine, not comparable, …);
/// <see langword="null"/> when compared.</param>
internal sealed record CounterVerdict(
    string Counter,
    string Unit,
    CounterVerdictStatus Status,
    VerdictMode Mode,
    BaselineStatistic Statistic,
    double? BaselineValue,
    double? CurrentValue,
    double? RelativeChange,
    double? EffectSize,
    string? BaselineMachineId,
    string? Reason)
{
    /// <summary>What <see cref="EffectSize"/> is: z, how many times its own noise the statistic moved.</summary>
    public const string EffectSizeName = "z";

    /// <summary>
    /// The smallest rise of the statistic this comparison tells from noise 95 % of the time (0.072 = "detects ≥ 7.2 %"),
    /// from the baseline's precision and the drift; <see langword="null"/> for exact verdicts and when nothing was compared.
    /// </summary>
    public double? DetectableChange { get; init; }

    /// <summary>
    /// The relative change a near-exact verdict (a simulated counter) allowed before calling it a regression or an
    /// improvement, e.g. 0.001 for ±0.1 %; <see langword="null"/> for an exact or statistical verdict.
    /// </summary>
    public double? Tolerance { get; init; }

    /// <summary>
    /// Cohen's d of a time-like counter over the floor region of both sides (the lowest quarter of the samples, on a log
    /// scale; <see cref="FloorEffectSize"/>), beyond what the conditions allow; <see langword="null"/> for other counters and
    /// when nothing was compared. Reported beside z; a gate only when the rule sets <see cref="CounterVerdictRule.MaxCohensD"/>.
    /// </summary>
    public double? CohensD { get; init; }

    /// <summary>
    /// What the verdict allowed for (a time counter only): the recorded spread, a correction by the allocation reference,
    /// a busy machine, another machine speed; <see langword="null"/> when nothing did.
    /// </summary>
    public TimeAllowance? Allowance { get; init; }

    /// <summary>
    /// How many processes the compared baseline counter was recorded in (<see cref="RecordingQuality.Processes"/>); 0
    /// when nothing was compared.
    /// </summary>
    public int RecordedProcesses { get; init; }

    /// <summary>
    /// Whether the measurement's conditions widened what the verdict allowed (other processes kept the machine busy, or the
    /// machine ran at another speed than at recording): measuring again may find the recording's conditions back and judge
    /// finer.
    /// </summary>
    public bool ConditionsChanged => Allowance?.ConditionsChanged == true;

    /// <summary><see langword="true"/> for <see cref="CounterVerdictStatus.Regressed"/>.</summary>
    public bool IsRegression => Status == CounterVerdictStatus.Regressed;

    /// <summary>
    /// One line for people, e.g.
    /// <c>task-clock P10 +12.3% (1,234 → 1,386 ns/op), z = 5.2, Cohen's d = 3.1, detects ≥ 7.2%: regressed</c>,
    /// <c>allocated-bytes P50 +100.0% (88 → 176 bytes/op): regressed (exact)</c> or
    /// <c>cycles: no baseline for this machine (1 entry from another machine: different CPU model (A vs B))</c>.
    /// </summary>
    public string Text => Reason is not null || BaselineValue is not { } before || CurrentValue is not { } after
        ? $"{Counter}: {Reason}"
        : string.Create(
            CultureInfo.InvariantCulture,
            $"{Counter} {Statistic} {Percent()}({Number(before)} → {Number(after)} {Unit}/op){Effect()}: {Outcome()}");

    /// <inheritdoc/>
    public override string ToString() => Text;

    /// <summary>
    /// A per-operation value as verdicts and reports print it: thousands separators and up to 3 decimals, or 3
    /// significant digits below 0.1.
    /// </summary>
    /// <param name="value">The value.</param>
    /// <returns>For example <c>1,234.5</c>.</returns>
    public static string Number(double value) =>

        // Events per operation can be far below 1 (a collection every 4,000 operations): three significant digits there.
        value != 0 && Math.Abs(value) < 0.1
            ? value.ToString("0.###E+0", CultureInfo.InvariantCulture)
            : value.ToString("#,0.###", CultureInfo.InvariantCulture);

    // The percentage is left out when the baseline is 0: any rise from 0 is infinite. A near-exact verdict judges hundredths
    // of a percent: it shows three decimals.
    private string Percent() => RelativeChange is { } change && double.IsFinite(change)
        ? (change * 100).ToString(Tolerance is null ? "+0.0;-0.0;0.0" : "+0.0##;-0.0##;0.0", CultureInfo.InvariantCulture) + "% "
        : string.Empty;

    private string Effect() =>
        (EffectSize is { } z ? string.Create(CultureInfo.InvariantCulture, $", {EffectSizeName} = {z:0.0}") : string.Empty)
        + (CohensD is { } d ? string.Create(CultureInfo.InvariantCulture, $", Cohen's d = {d:0.0;-0.0;0.0}") : string.Empty)
        + (DetectableChange is { } r ? string.Create(CultureInfo.InvariantCulture, $", detects ≥ {r * 100:0.#}%") : string.Empty)
        + (Allowance?.Describe() is { Length: > 0 } allowed ? ", " + allowed : string.Empty);

    private string Outcome()
    {
        string outcome = Status switch
        {
            CounterVerdictStatus.Regressed => "regressed",
            CounterVerdictStatus.Improved => "improved",
            CounterVerdictStatus.Unconfirmed => "unconfirmed (a confirming measurement did not regress)",
            _ => "pass",
        };
        return Tolerance is { } tolerance
            ? outcome + string.Create(CultureInfo.InvariantCulture, $" (simulated, within ±{tolerance * 100:0.0##}%)")
            : Mode == VerdictMode.Exact ? outcome + " (exact)" : outcome;
    }
}
