using System.Globalization;
using static Picollo.Assertions.PerfAssertionMessage;

namespace Picollo.Assertions;

/// <summary>
/// The messages of the assertions in one place: a paired claim's arguments out of range, its claim and verdict (pass,
/// fail, undecided) in the Shouldly shape of <see cref="PerfAssertionMessage.Format"/>, and the notices of reports that
/// could not be written.
/// </summary>
internal static class AssertionMessages
{
    /// <summary>Given when ShouldBeFasterBy's factor is not positive and finite.</summary>
    internal static string SpeedUpOutOfRange(string? expression, double factor) =>
        $"{expression}.ShouldBeFasterBy({Number(factor)}): a speed-up is a positive, finite factor: 1.5 means at least 1.5× faster, " +
        "0.95 allows at most ~5% slower.";

    /// <summary>Given when ShouldBeFasterBy's minCohensD is negative or not finite.</summary>
    internal static string CohensDOutOfRange(string? expression, double minCohensD) =>
        $"{expression}.ShouldBeFasterBy(minCohensD: {Number(minCohensD)}): Cohen's d_z is a size, 0 or more " +
        "(0.2 small, 0.5 medium, 0.8 large).";

    /// <summary>Given when ShouldNotBeSlower's maxChange is negative or not finite.</summary>
    internal static string MaxChangeOutOfRange(string? expression, double maxChange) =>
        $"{expression}.ShouldNotBeSlower(maxChange: {Number(maxChange)}): the allowed slowdown is a fraction, 0 or more: " +
        "0.05 allows +5%.";

    /// <summary>Given when a paired claim's confidence is outside [0.5, 0.9999].</summary>
    internal static string ConfidenceOutOfRange(string? expression, double confidence) =>
        $"{expression}: confidence {Number(confidence)} is outside [0.5, 0.9999]: 0.99 (the default) for a 99% interval.";

    /// <summary>The claim of ShouldBeFasterBy: the factor, the bound of candidate / reference, and the Cohen's d_z gate if any.</summary>
    internal static string FasterByClaim(
        double factor, string candidateName, string referenceName, double bound, double confidence, double? minCohensD) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{Number(factor)}× ({candidateName} / {referenceName} at most {bound:0.000}× at {confidence * 100:0.##}% confidence" +
            $"{(minCohensD is { } g ? $", Cohen's d_z at most -{Number(g)}" : string.Empty)})");

    /// <summary>The claim of ShouldNotBeSlower: the allowed change and the bound of candidate / reference.</summary>
    internal static string NotSlowerClaim(double maxChange, string candidateName, string referenceName, double confidence) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"+{maxChange:0.##%} ({candidateName} / {referenceName} at most {1 + maxChange:0.000}× at " +
            $"{confidence * 100:0.##}% confidence)");

    /// <summary>
    /// The outcome of ShouldBeFasterBy when the speed-up, <paramref name="speed"/>, is shown but its Cohen's d_z does not
    /// reach the gate <paramref name="minCohensD"/>.
    /// </summary>
    internal static string SpeedUpBelowCohensD(string speed, double cohensDz, double minCohensD) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{speed}, but Cohen's d_z = {cohensDz:0.00} does not reach -{Number(minCohensD)}: the speed-up does not stand that " +
            $"many paired standard deviations out of the noise");

    /// <summary>
    /// The measured change of candidate / reference in words: "1.02× faster", "1.31× slower (+31%)", "as fast as the reference".
    /// </summary>
    internal static string Speed(double ratio) => Math.Abs(Math.Log(ratio)) < 0.005
        ? "as fast as the reference"
        : ratio < 1
            ? string.Create(CultureInfo.InvariantCulture, $"{1 / ratio:0.00}× faster")
            : string.Create(CultureInfo.InvariantCulture, $"{ratio:0.00}× slower ({ratio - 1:+0.#%})");

    /// <summary>
    /// Given when ShouldNotIncrease is called on <paramref name="counterName"/>, which is not exact: time-like counters are
    /// pointed to a bounded change, others to allocated-bytes.
    /// </summary>
    internal static string NotAnExactCounter(string call, string counterName, bool isTimeLike, string? expression) =>
        $"{call}: {counterName} is not an exact counter, so \"no increase\" cannot be shown exactly: " +
        (isTimeLike
            ? $"claim a bounded change instead, {expression}.{nameof(PairedCounterAssertions.ShouldNotBeSlower)}(maxChange: 0.05)."
            : "its counts land in some samples and not others; compare allocated-bytes exactly, or claim a bounded change with " +
              $"{nameof(PairedCounterAssertions.ShouldNotBeSlower)}(maxChange: 0.05).");

    /// <summary>
    /// Given when a paired claim is made on <paramref name="counterName"/>, an occasional counter with no paired interval.
    /// </summary>
    internal static string NoPairedInterval(string call, string counterName) =>
        $"{call}: {counterName} counts events that land in some samples and not others, so it has no paired interval: " +
        "compare time (tsc, task-clock) or an exact counter (allocated-bytes) instead.";

    /// <summary>The failure of ShouldNotIncrease (before the paired table): the candidate counts more per operation.</summary>
    internal static string Increased(
        string? expression, string unit, double referenceMean, string referenceName, double candidateMean, string candidateName) =>
        Format(
            expression,
            "not increase over the reference's",
            $"{Number(referenceMean)} {unit} per operation ({referenceName})",
            $"{Number(candidateMean)} {unit} per operation ({candidateName}, +{Number(candidateMean - referenceMean)}, exact)");

    /// <summary>The verdict line of a paired claim that passed: what it saw, so a narrow pass reads apart from a wide one.</summary>
    internal static string PairedPass(
        string call, string speed, string counterName, double ratio, double low, double high, double coverage, double cohensDz) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{call}: pass, {speed} ({counterName} {ratio:0.000}×, {low:0.000}–{high:0.000}× at {coverage * 100:0.#}%, " +
            $"Cohen's d_z = {cohensDz:0.00})");

    /// <summary>
    /// The failure of a paired claim (before the paired table): the whole interval is on the other side of the bound, or a
    /// gate failed; <paramref name="outcome"/> says which.
    /// </summary>
    internal static string PairedFailure(
        string? expression, string expectation, string claim, string outcome, PairedEvidence evidence) =>
        Format(expression, expectation, claim, string.Create(
            CultureInfo.InvariantCulture,
            $"{outcome}: {evidence.Counter} ratio {evidence.Ratio:0.000}× ({evidence.Low:0.000}–{evidence.High:0.000}× at " +
            $"{evidence.Coverage * 100:0.#}%), Cohen's d_z = {evidence.CohensDz:0.00}, floors {evidence.FloorRatio:0.000}×, " +
            $"{evidence.Pairs:N0} pairs in {evidence.Measurements} measurement{(evidence.Measurements == 1 ? string.Empty : "s")}"));

    /// <summary>
    /// The failure of a paired claim the comparison could not settle (before the paired table): the interval still holds
    /// <paramref name="bound"/> after every measurement allowed, with how to get more precision.
    /// </summary>
    internal static string PairedUndecided(
        string? expression, string expectation, string claim, double bound, int suggestedSamples, PairedEvidence evidence) =>
        Format(expression, expectation, claim, string.Create(
            CultureInfo.InvariantCulture,
            $"not told apart at this precision: {evidence.Counter} ratio {evidence.Ratio:0.000}× ({evidence.Low:0.000}–" +
            $"{evidence.High:0.000}× at {evidence.Coverage * 100:0.#}%) holds {bound:0.000}× after {evidence.Measurements} " +
            $"measurement{(evidence.Measurements == 1 ? string.Empty : "s")} ({evidence.Pairs:N0} pairs), Cohen's d_z = " +
            $"{evidence.CohensDz:0.00}. A claim the comparison cannot settle fails rather than pass unshown. For more precision: " +
            $"more pairs (Samples, e.g. {suggestedSamples:N0}), a longer TimeBudgetMs, a quieter machine; or claim a bound further " +
            $"from the measured {evidence.Ratio:0.000}×."));

    /// <summary>
    /// The notice when the comparison's JSON result could not be written to <paramref name="resultsDirectory"/>
    /// (<paramref name="error"/>): the verdicts stand, and <paramref name="resultsVariable"/> points elsewhere.
    /// </summary>
    internal static string ComparisonResultNotWritten(string resultsDirectory, string error, string resultsVariable) =>
        $"Could not write the comparison's result to {resultsDirectory}: {error}\n" +
        $"The verdicts are unaffected; the report is in the test output only. Set {resultsVariable} to a writable folder to keep " +
        "the JSON result.";

    /// <summary>
    /// The notice when a test's report files could not be written to <paramref name="resultsDirectory"/>
    /// (<paramref name="error"/>): the verdict stands, and <paramref name="resultsVariable"/> points elsewhere.
    /// </summary>
    internal static string ReportFilesNotWritten(string resultsDirectory, string error, string resultsVariable) =>
        $"Could not write the report files to {resultsDirectory}: {error}\n" +
        $"The verdict is unaffected; the report is in the test output only. Set {resultsVariable} to a writable folder to keep " +
        "the JSON result and the plot.";

    /// <summary>
    /// The notice when the digest could not be appended to the job summary <paramref name="path"/>, named by
    /// <paramref name="summaryVariable"/> (<paramref name="error"/>).
    /// </summary>
    internal static string StepSummaryNotWritten(string? path, string summaryVariable, string error) =>
        $"Could not append the digest to the job summary {path} (${summaryVariable}): {error}\n" +
        $"The verdict is unaffected. GitHub Actions sets {summaryVariable} to a writable file; outside Actions, unset it or point " +
        "it to one.";

    /// <summary>
    /// The one line a run prints about counters this machine cannot count (the PMU's on most VMs and CI runners): each group
    /// of counters with its cause in a few words; said by the first test that meets it, since every test of the run meets the
    /// same machine. The full reason and its remedy stay in the result files and in <c>picollo doctor</c>.
    /// </summary>
    /// <param name="groups">The counters and their cause (<see cref="Counters.UnavailableReasons.Headline"/>), per reason.</param>
    internal static string NotCountedOnThisMachine(IEnumerable<(IReadOnlyList<string> Names, string Cause)> groups) =>
        "Not counted on this machine: "
        + string.Join("; ", groups.Select(static g => $"{string.Join(", ", g.Names)} ({g.Cause})"))
        + ". Said once per run; 'picollo doctor' gives the reason and the fix, and each test's result file keeps it.";
}
