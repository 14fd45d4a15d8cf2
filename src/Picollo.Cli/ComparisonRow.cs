using System.Text.Json.Serialization;

namespace Picollo.Cli;

/// <summary>One counter of one test in <c>picollo compare</c>.</summary>
/// <param name="Test">The test's name.</param>
/// <param name="Counter">The counter; empty for a test only one run has.</param>
/// <param name="Status">
/// regressed, unconfirmed (a time slower by less than two result folders can confirm), improved, pass, inconclusive, not
/// compared, new or removed.
/// </param>
/// <param name="Base">The compared statistic in the base run, per operation.</param>
/// <param name="Head">The same in the head run.</param>
/// <param name="Change">The relative change; <see langword="null"/> when there is none to give (nothing compared, or a base of 0).</param>
/// <param name="Text">The verdict as the library words it.</param>
internal sealed record ComparisonRow(string Test, string Counter, string Status, double? Base, double? Head, double? Change, string Text)
{
    /// <summary>
    /// Cohen's d of a time counter's floor regions (docs/VERDICTS.md, "Cohen's d"); <see langword="null"/> for other counters.
    /// </summary>
    public double? CohensD { get; init; }

    /// <summary>
    /// Whether the counter is judged exactly (allocated bytes, JIT counts: <see cref="Picollo.Baselines.VerdictMode.Exact"/>), so
    /// <see cref="Base"/> and <see cref="Head"/> are the runs' exact per-operation values.
    /// </summary>
    public bool Exact { get; init; }

    /// <summary>
    /// Whether a verdict was reached: regressed, unconfirmed (seen, and said), improved or pass (not inconclusive, not
    /// compared, new or removed).
    /// </summary>
    [JsonIgnore]
    public bool Judged => Status is "regressed" or "unconfirmed" or "improved" or "pass";
}
