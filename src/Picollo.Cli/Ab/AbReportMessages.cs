using System.Globalization;

namespace Picollo.Cli.Ab;

/// <summary>
/// The sentences of <c>picollo ab</c>'s report: the headline under its title and the paragraph under its table
/// that says how time was judged. The golden file <c>AbReportMessages.approved.md</c> shows each; the errors and problems
/// are <see cref="AbMessages"/>'.
/// </summary>
internal static class AbReportMessages
{
    /// <summary>
    /// The headline: how many tests got each verdict (<paramref name="verdicts"/>, e.g. <c>**1 regressed**</c>,
    /// <c>2 unchanged</c>; none is "No tests"), the threshold and confidence, and the pairs of test runs it took (a process
    /// pair runs several tests).
    /// </summary>
    public static string Headline(IReadOnlyList<string> verdicts, double threshold, double confidence, int pairs, TimeSpan wall) =>
        string.Create(CultureInfo.InvariantCulture, $"{(verdicts.Count == 0 ? "No tests" : string.Join(", ", verdicts))} · "
            + $"threshold ±{threshold:0.#%}, {confidence:0.#%} confidence · {pairs} pairs of test runs in {wall.TotalSeconds:0} s");

    /// <summary>The paragraph under the table: time is paired, and what unchanged and regressed mean at this threshold.</summary>
    public static string TimeIsPaired(double threshold, int maxPairs) =>
        "Time is paired: each pair of processes (one per build) measured the tests at the same time, "
            + "samples alternating; a pair's ratio is one value, and the interval is over the pairs. "
            + FormattableString.Invariant($"Unchanged: the 90% interval (two one-sided tests) inside ±{threshold:0.#%}, ")
            + FormattableString.Invariant($"or, after {maxPairs} pairs, the run's interval inside ")
            + FormattableString.Invariant($"±{AbStatistics.CapBoundInThresholds * threshold:0.#%}; ")
            + "the verdict says the bound it proved. "
            + FormattableString.Invariant($"Regressed: the run's interval wholly above +{threshold:0.#%}, ")
            + FormattableString.Invariant($"or, after {maxPairs} pairs, wholly above no change.")
            + " Exact counters compare the means per operation; simulated counters (counted under Valgrind in "
            + "each test's first pair) within ±0.1%, their misses within ±1%.";
}
