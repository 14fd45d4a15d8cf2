using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Measurement;

namespace Picollo.Baselines.Judging;

/// <summary>
/// What <see cref="BaselineJudge"/> decided about a measurement and why: the measurement whose check decided, the check,
/// the baseline it compared with, every re-measurement and what it showed, and the notices the test's reader must see.
/// The assertion turns it into a message; the test-framework adapters turn it into pass, fail or skip.
/// </summary>
internal sealed class BaselineJudgement
{
    /// <summary>The measurement the caller passed.</summary>
    public required PerfResult First { get; init; }

    /// <summary>The measurement whose check decided the outcome: <see cref="First"/>, or a re-measurement of it.</summary>
    public required PerfResult Judged { get; init; }

    /// <summary>The record of <see cref="Judged"/> as it was compared (and written, if it was).</summary>
    public required BaselineRecord Current { get; init; }

    /// <summary>The check of <see cref="Judged"/>, its verdicts rejudged when a second measurement did not confirm a regression.</summary>
    public required BaselineCheckResult Check { get; init; }

    /// <summary>
    /// The baseline file compared with, as it was before an update rewrote it; <see langword="null"/> when there was
    /// none.
    /// </summary>
    public BaselineFile? Baseline { get; init; }

    /// <summary>
    /// Why the body was measured again and what each measurement showed; <see langword="null"/> when it was measured
    /// once.
    /// </summary>
    public string? Remeasurement { get; init; }

    /// <summary>
    /// For a failure confirmed by a second measurement: the confirmed verdicts and what to rule out; else
    /// <see langword="null"/>.
    /// </summary>
    public string? Confirmation { get; init; }

    /// <summary>Counters that regressed in the first measurement and again in the second.</summary>
    public IReadOnlyList<string> ConfirmedCounters { get; init; } = [];

    /// <summary>
    /// Counters whose regression a confirming measurement (in this process or a fresh one) did not show: they pass
    /// (<see cref="CounterVerdictStatus.Unconfirmed"/>).
    /// </summary>
    public IReadOnlyList<string> UnconfirmedCounters { get; init; } = [];

    /// <summary>
    /// What the reader must see on a test that does not fail (a missing baseline, an improvement, an update, an
    /// unwritable folder, an unconfirmed regression), in order.
    /// </summary>
    public IReadOnlyList<string> Notices { get; init; } = [];

    /// <summary>The outcome: <see cref="BaselineCheckResult.Outcome"/> of <see cref="Check"/>.</summary>
    public BaselineOutcome Outcome => Check.Outcome;
}
