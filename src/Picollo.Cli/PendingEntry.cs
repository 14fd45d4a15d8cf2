using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;

namespace Picollo.Cli;

/// <summary>
/// One machine's entry in a received file that the baseline does not hold yet, with the verdicts of the library's rules
/// against the baseline and the reason the file was written.
/// </summary>
/// <param name="Entry">The received entry.</param>
/// <param name="Verdicts">Each counter judged against the baseline's entry for that machine.</param>
internal sealed record PendingEntry(BaselineEntry Entry, IReadOnlyList<CounterVerdict> Verdicts)
{
    /// <summary>missing (no entry for that machine), regressed, improved, or changed (inconclusive, not comparable).</summary>
    public string Why =>
        Verdicts.Any(static v => v.Status == CounterVerdictStatus.NoBaseline) ? "missing"
        : Verdicts.Any(static v => v.IsRegression) ? "regressed"
        : Verdicts.Any(static v => v.Status == CounterVerdictStatus.Improved) ? "improved"
        : "changed";
}
