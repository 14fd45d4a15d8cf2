using System.Globalization;
using Picollo.Text;

namespace Picollo.Cli.Ab;

/// <summary>
/// What <c>picollo ab</c> tells the user when it cannot run or a pair goes wrong: the options it refuses, the
/// revisions, projects, builds and filters it cannot use, the workers that hang or crash, and the problems a test's row
/// carries. Each method is one situation, taking the facts it states; the golden file <c>AbMessages.approved.md</c> shows
/// every one. The report's own sentences are <see cref="AbReportMessages"/>'.
/// </summary>
internal static class AbMessages
{
    // The filter's grammar, told after every filter that cannot be read.
    private const string FilterForms = "use FullyQualifiedName, Name or ClassName with = (is), != (is not), ~ (contains) "
        + "or !~ (does not contain), joined with | (or) and & (and), e.g. \"FullyQualifiedName~Parser|Name=Count\"";

    /// <summary><c>--threshold</c> is not a percentage in (0, 100).</summary>
    public static string ThresholdNotAPercentage(double threshold) =>
        string.Create(
            CultureInfo.InvariantCulture, $"--threshold {threshold} is not a percentage in (0, 100): the change that matters, e.g. 5.");

    /// <summary><c>--confidence</c> is not a percentage in [50, 100).</summary>
    public static string ConfidenceNotAPercentage(double confidence) =>
        string.Create(CultureInfo.InvariantCulture, $"--confidence {confidence} is not a percentage in [50, 100): e.g. 99.");

    /// <summary><c>--min-pairs</c> is below 2, or <c>--max-pairs</c> below it.</summary>
    public static string PairsOutOfRange(int least, int most) =>
        $"--min-pairs {least} and --max-pairs {most}: an interval needs at least 2 pairs, and the most cannot be below the least.";

    /// <summary><c>--time-budget</c> or <c>--worker-timeout</c> is zero or negative.</summary>
    public static string BudgetsNotPositive() => "--time-budget and --worker-timeout must be positive.";

    /// <summary><c>--format</c> names a format picollo ab does not write.</summary>
    public static string UnknownFormat(string format) =>
        $"--format {format} is not a format picollo ab writes: use markdown (a pull-request comment), json or html.";

    /// <summary>Neither build of the <paramref name="projects"/> has a perf test.</summary>
    public static string NoPerfTests(IEnumerable<string> projects) =>
        $"No perf tests in {string.Join(", ", projects)}: a perf test is a method "
            + "with [PerfFact], [PerfTheory], [PerfTest] or [PerfTestCase].";

    /// <summary>No perf test of the <paramref name="projects"/> matches <c>--filter</c>.</summary>
    public static string NoPerfTestMatchesFilter(IEnumerable<string> projects, string filter) =>
        $"No perf tests in {string.Join(", ", projects)} match --filter \"{filter}\".";

    /// <summary>On GitHub Actions, the step summary <paramref name="summary"/> could not be written (the report was).</summary>
    public static string StepSummaryNotWritten(string summary, string reason) =>
        $"The step summary {summary} could not be written: {reason}. The report above is "
            + "complete; check that the runner may write the file GITHUB_STEP_SUMMARY names.";

    /// <summary>
    /// The <paramref name="revision"/> (described as <c>base (origin/main, merge-base 1a2b3c4)</c>) has no
    /// <paramref name="project"/>; why that may be depends on the side.
    /// </summary>
    public static string ProjectMissing(string revision, string project, bool isBase)
    {
        string why = isBase ? "it is new in the head, was moved, or is misspelled" : "it was removed or moved, or is misspelled";
        return $"The {revision} has no project {project}: {why}. Name a project both revisions have with --project.";
    }

    /// <summary>
    /// The <paramref name="revision"/> built, and <c>dotnet msbuild -getProperty</c> failed; <paramref name="answer"/> is what
    /// it printed.
    /// </summary>
    public static string AssemblyPathUnknown(string revision, string project, string answer) =>
        $"The {revision} built {project}, but dotnet msbuild could not say where its assembly is: {answer}";

    /// <summary>The project targets several frameworks, and a pair measures one build.</summary>
    public static string SeveralTargetFrameworks(string project, string frameworks) =>
        $"{project} targets several frameworks ({frameworks}): picollo ab measures a "
            + "project built for one. Give the perf-test project a single TargetFramework.";

    /// <summary>The project has no TargetPath: it builds no assembly.</summary>
    public static string NoTargetPath(string project) =>
        $"dotnet msbuild gives {project} no TargetPath: it is not a project "
            + "that builds an assembly. Name a perf-test project with --project.";

    /// <summary>The <paramref name="revision"/> built, and its assembly is not where MSBuild says.</summary>
    public static string AssemblyNotAtTargetPath(string revision, string project, string assembly) =>
        $"The {revision} built {project}, but its assembly is not at {assembly}: the project moves its "
            + "output (OutputPath, a custom target). Build it with the SDK's default output layout.";

    /// <summary>The built <paramref name="assemblyFile"/> has no .runtimeconfig.json: it is a library, not a test program.</summary>
    public static string NotATestProgram(string project, string assemblyFile) =>
        $"{project} is not a test program: {assemblyFile} has no .runtimeconfig.json beside it, so it cannot be started on its own. "
            + "xunit.v3 test projects and NUnit projects built with Microsoft.NET.Test.Sdk are test programs; name one with --project.";

    /// <summary>The dotnet host at <paramref name="path"/> could not be started to build a revision.</summary>
    public static string DotnetNotStarted(string path, string reason) =>
        $"dotnet could not be started ({path}: {reason}): picollo ab builds both revisions "
            + "with the .NET SDK. Install it (or put dotnet on the PATH) and run again.";

    /// <summary>A <c>)</c> at <paramref name="character"/> (1-based) closes no group of the filter.</summary>
    public static string FilterUnopenedParenthesis(string filter, int character) =>
        $"The filter '{filter}' has a ')' without its '(' at character {character}: {FilterForms}.";

    /// <summary>A <c>(</c> of the filter is never closed.</summary>
    public static string FilterUnclosedParenthesis(string filter) =>
        $"The filter '{filter}' has a '(' without its ')': {FilterForms}.";

    /// <summary>The filter's condition at <paramref name="character"/> (1-based) has no value.</summary>
    public static string FilterEmptyCondition(string filter, int character) =>
        $"The filter '{filter}' has an empty condition at character {character}: {FilterForms}.";

    /// <summary>The filter names a property picollo ab does not know (it knows FullyQualifiedName, Name and ClassName).</summary>
    public static string FilterPropertyNotSupported(string property) =>
        $"The filter property '{property}' is not supported by picollo ab: {FilterForms}.";

    /// <summary>No project under the revision's <paramref name="root"/> references an adapter.</summary>
    public static string NoPerfTestProjects(string root) =>
        $"No perf-test projects under {root}: a perf-test project references "
            + "Picollo.Testing.Xunit or Picollo.Testing.NUnit. Name one with --project.";

    /// <summary>The project has perf tests of both frameworks, and a test program runs one.</summary>
    public static string BothFrameworks(string project) =>
        $"{project} declares both xunit ([PerfFact], [PerfTheory]) and NUnit ([PerfTest], [PerfTestCase]) perf "
            + "tests: a test project runs one framework. Keep each framework's perf tests in their own project.";

    /// <summary>
    /// The project has no perf test, and its assembly references <paramref name="adapters"/> of the two adapters (0 or 2),
    /// so its framework cannot be told.
    /// </summary>
    public static string NotAPerfTestProject(string project, int adapters)
    {
        string references = adapters == 0
            ? "neither Picollo.Testing.Xunit nor Picollo.Testing.NUnit"
            : "both Picollo.Testing.Xunit and Picollo.Testing.NUnit";
        return $"{project} has no perf test, and its assembly references "
            + $"{references}: it is not a perf-test project. Name one with --project.";
    }

    /// <summary>picollo ab was run outside a git repository.</summary>
    public static string NotAGitRepository(string folder) =>
        $"{folder} is not inside a git repository: run picollo ab from a clone of your repository (actions/checkout with fetch-depth: 0).";

    /// <summary>The repository has no commit for the working tree to be judged against.</summary>
    public static string NoCommitYet(string root) =>
        $"The repository at {root} has no commit yet: the working tree is judged "
            + "against a commit, so commit first, then run picollo ab again.";

    /// <summary>
    /// The <paramref name="side"/>'s ref is no commit of the repository: how to fetch it (<paramref name="fetch"/>, a git
    /// command), told differently in a shallow clone.
    /// </summary>
    public static string RefNotACommit(string side, string reference, string root, bool shallow, string fetch)
    {
        string hint = shallow
            ? "This clone is shallow (actions/checkout fetches a single commit by "
                + $"default): check out with fetch-depth: 0, or fetch it ({fetch})."
            : $"If it is a branch of the remote, fetch it ({fetch}), or check out with fetch-depth: 0 in CI; else check its spelling.";
        return $"The {side} '{reference}' is not a commit in the repository at {root}. {hint}";
    }

    /// <summary>
    /// A note: the base ref and the head have no common ancestor (or none this shallow clone holds), so the base commit
    /// itself (<paramref name="baseCommit"/>, short) is measured.
    /// </summary>
    public static string NoCommonAncestor(string baseRef, string baseCommit, bool shallow)
    {
        string where = shallow ? " in this shallow clone (check out with fetch-depth: 0 to find it)" : "";
        return $"'{baseRef}' and the head have no common ancestor{where}: the base is '{baseRef}' itself "
            + $"({baseCommit}), so everything that differs between the two is judged, not only the head's changes.";
    }

    /// <summary>A note: the base and the head have the same files, so one build ran on both sides of every pair.</summary>
    public static string SameSources() =>
        "The base and the head have the same sources: one build ran on both sides of every pair, so the verdicts show how "
            + "much this runner's noise moves unchanged code (an A/A run).";

    /// <summary>The submodules of the <paramref name="side"/>'s worktree could not be checked out.</summary>
    public static string SubmodulesNotCheckedOut(string side, string reference, string commit, string path, string reason) =>
        $"git could not check out the submodules of the {side} ({reference}, {commit}) in {path}: {reason}. "
            + "picollo ab runs git submodule update --init --recursive in the worktree: make the "
            + "submodules' URLs reachable from this machine (credentials for private ones), then run again.";

    /// <summary>git could not be started.</summary>
    public static string GitNotStarted(string reason) =>
        $"git could not be started ({reason}): picollo ab checks out the base with git. Install git (or put it on the PATH) and run again.";

    /// <summary>A git command did not finish within <paramref name="timeout"/> and was stopped.</summary>
    public static string GitTimedOut(IEnumerable<string> arguments, TimeSpan timeout, string directory) =>
        string.Create(CultureInfo.InvariantCulture, $"git {string.Join(' ', arguments)} did not finish within {timeout.TotalSeconds:0} "
            + $"s in {directory} and was stopped: check for a lock file (.git/index.lock) or a hook that waits, then run again.");

    /// <summary>A pair's <paramref name="side"/> worker was still running <paramref name="timeout"/> after its last measurement.</summary>
    public static string WorkerDidNotExit(string side, TimeSpan timeout) =>
        $"the {side} worker did not exit within {timeout.TotalSeconds:0} s after its last measurement and was stopped.";

    /// <summary>
    /// A pair's <paramref name="side"/> worker exited during a measurement; <paramref name="tail"/> is its last output
    /// (empty when it printed nothing).
    /// </summary>
    public static string WorkerExitedMidMeasurement(string side, int exitCode, string tail) =>
        string.Create(CultureInfo.InvariantCulture, $"the {side} worker exited with "
            + $"code {exitCode} in the middle of a measurement.{LastOutput(tail)}");

    /// <summary>
    /// A pair's <paramref name="side"/> worker exited without a measurement or a failure; <paramref name="tail"/> is its last
    /// output.
    /// </summary>
    public static string WorkerExitedWithoutMeasuring(string side, int exitCode, string tail) =>
        string.Create(CultureInfo.InvariantCulture, $"the {side} worker exited with code {exitCode} without measuring.{LastOutput(tail)}");

    /// <summary>
    /// A pair's <paramref name="side"/> worker skipped <paramref name="test"/> without measuring, for
    /// <paramref name="reason"/> (the test's skip reason, e.g. its code instrumented for code coverage).
    /// </summary>
    public static string WorkerSkipped(string side, string test, string reason) =>
        $"the {side} worker skipped {test} without measuring: {Sentences.Ended(reason)}";

    /// <summary>A pair's <paramref name="side"/> worker neither measured nor exited for <paramref name="timeout"/>.</summary>
    public static string WorkerSilent(string side, TimeSpan timeout) =>
        $"the {side} worker neither measured nor exited for {timeout.TotalSeconds:0} "
            + "s and was stopped (a hang, or a test slower than --worker-timeout).";

    /// <summary>A pair's <paramref name="side"/> worker said something other than a measurement's start.</summary>
    public static string WorkerSaidUnexpected(string side, string line) =>
        $"the {side} worker said '{line}' where a measurement's start was expected: the tool and the build's Picollo differ in version.";

    /// <summary>
    /// A pair's <paramref name="side"/> worker did not answer within <paramref name="seconds"/> during a paired measurement.
    /// </summary>
    public static string WorkerDidNotAnswer(string? side, int? seconds)
    {
        string worker = side is null ? "a worker" : $"the {side} worker";
        string within = seconds is { } s ? string.Create(CultureInfo.InvariantCulture, $"within {s} s") : "in time";
        return $"{worker} did not answer {within} in the middle of a measurement and was stopped.";
    }

    /// <summary>The time budget ended the run: the undecided tests are judged on the pairs they have.</summary>
    public static string TimeBudgetSpent(TimeSpan budget) =>
        string.Create(CultureInfo.InvariantCulture, $"The time budget ({budget.TotalMinutes:0.#} min) "
            + $"is spent: the tests still undecided take their verdicts from the pairs they have.");

    /// <summary>A test's problem: it compares two bodies of its own build, and those claims held on the head.</summary>
    public static string RelativeClaimsHeld() =>
        "Compares two bodies inside its own build (Against or Perf.Compare): "
            + "its relative claims held on the head; not paired across builds.";

    /// <summary>The progress of a pair whose time is set aside: the <paramref name="side"/>'s code was not final.</summary>
    public static string PairSetAside(string side, string notes) =>
        $"set aside: the {side}'s code was not final{(notes.Length > 0 ? " (" + notes + ")" : string.Empty)}";

    /// <summary>A test's problem: <paramref name="setAside"/> of its <paramref name="pairs"/> were set aside, the rest judged.</summary>
    public static string PairsSetAside(int setAside, int pairs) =>
        $"{setAside} of {pairs} pairs set aside: one side's code was not final (its warmup stopped before tier 1, or code was "
            + "compiled on its measuring thread during the samples); the time is judged on the other pairs.";

    /// <summary>A test's problem: both sides ran it, and neither took a measurement.</summary>
    public static string NothingMeasured() =>
        "Neither side measured anything: the test ran no measurement (skipped, built without optimizations, or instrumented for "
            + "code coverage).";

    /// <summary>
    /// A test's problem: no pair gave it a time to compare (the verdict's own counter); its exact counters, where listed,
    /// were compared, but they do not judge time.
    /// </summary>
    public static string NoTimeToCompare() =>
        "No pair gave a time to compare: the two builds never measured it paired in the pairs the run had (each reached it "
            + "at another point of its own order), its batches read 0 at their fastest (a body that costs no more than the "
            + "sample loop's own overhead), or the two sides did not count one time counter. Exact counters, where listed, "
            + "were compared; time was not. Run it alone (--filter) to pair it, or give the body more work per operation.";

    // " Its last output: ..." after a worker's exit, when it printed something.
    private static string LastOutput(string tail) => tail.Length > 0 ? " Its last output: " + tail : string.Empty;
}
