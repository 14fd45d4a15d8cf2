using System.Globalization;
using Picollo.Text;

namespace Picollo.Cli;

/// <summary>
/// What picollo's commands (accept, baselines, compare, report, doctor) tell the user beyond their reports: why
/// nothing could be judged or written, what was skipped, and what accepting a received entry drops. Each method is one
/// situation, taking the facts it states; the golden file <c>CliMessages.approved.md</c> shows every one.
/// </summary>
internal static class CliMessages
{
    // Where a perf-test run writes its results, as the messages about a results folder name it.
    private const string ResultsFolders = "the test project's TestResults/picollo, or PICOLLO_RESULTS_DIR";

    /// <summary><c>picollo accept --test NAME</c> matched no test under the folder; the nearest names, when there are any.</summary>
    public static string NoTestNamed(string name, string folder, IReadOnlyList<string> nearest) =>
        $"picollo accept: no test named '{name}' has a baseline or received file under {folder}"
        + (nearest.Count > 0 ? $"; the nearest names: {string.Join(", ", nearest)}." : ": there is none there.")
        + " Name the method (Tokenize), Class.Method (TokenizerPerf.Tokenize) "
            + "or a pattern (TokenizerPerf.*), as dotnet test --filter does.";

    /// <summary>The end of <c>picollo accept --dry-run</c>: the list was shown and nothing was written.</summary>
    public static string DryRunChangedNothing() =>
        "Dry run: nothing was changed. Run it again without --dry-run to accept (one by one, or all with --all).";

    /// <summary>
    /// Under a pending entry being reviewed, when accepting it drops levels recorded across processes;
    /// <paramref name="dropped"/> is <see cref="LevelsDropped"/>.
    /// </summary>
    public static string AcceptingDropsLevels(string dropped) =>
        $"Accepting {dropped}; record it again with PICOLLO_UPDATE_BASELINES=1 to measure the levels in fresh processes.";

    /// <summary>The end of accept's list, when accepting some entry drops levels recorded across processes.</summary>
    public static string KeepLevelsByRecordingAgain() =>
        "To keep levels measured across processes, record those tests again with "
            + "PICOLLO_UPDATE_BASELINES=1 (docs/VERDICTS.md, \"Levels\") instead of accepting.";

    /// <summary>
    /// The phrase saying what accepting a one-process received entry drops: this machine's entry was recorded across
    /// <paramref name="before"/> processes (with <paramref name="spread"/>, empty for one level), the received one in
    /// <paramref name="after"/>.
    /// </summary>
    public static string LevelsDropped(int before, string spread, int after) =>
        $"drops the levels this machine's entry recorded across {before} processes ({(spread.Length > 0 ? spread : "one level")}): "
            + $"the received entry was recorded in {after} process{(after == 1 ? "" : "es")}";

    /// <summary><c>picollo baselines</c> on a folder without a baseline or received file.</summary>
    public static string NoBaselineFiles(string folder) =>
        $"No baseline or received file (*.perf.json) under {folder}: nothing "
            + "to show. A perf test's first run writes one beside its source.";

    /// <summary><c>picollo compare</c> skipped a result file of the <paramref name="run"/> (base or head) that could not be read.</summary>
    public static string ResultFileSkipped(UnreadableResult file, string run) =>
        $"picollo compare: skipped {Sentences.Ended(file.ToString())} {file.Test} is not compared; run its perf "
            + $"test again in the {run} run to rewrite the file, or remove the file.";

    /// <summary>The head folder of <c>picollo compare</c> holds no result file: the head run wrote none.</summary>
    public static string HeadHasNoResults(string folder) =>
        $"No result file (*.result.json) under the head folder {folder}: the head run wrote no "
            + "results, so nothing can be judged. Run the perf tests first (they write to the test "
            + "project's TestResults/picollo, or to PICOLLO_RESULTS_DIR) and give that folder.";

    /// <summary>The head folder of <c>picollo compare</c> holds result files, and none could be read.</summary>
    public static string HeadResultsUnreadable(string folder) =>
        $"No result file under the head folder {folder} could be read (the reasons are "
            + "above): nothing can be judged. Run the perf tests again to rewrite them.";

    /// <summary>
    /// The base folder of <c>picollo compare</c> holds no result file (or, with <paramref name="someUnreadable"/>, none that
    /// could be read): every head test is new.
    /// </summary>
    public static string BaseHasNoResults(string folder, bool someUnreadable) =>
        $"No result file (*.result.json) under the base folder {folder}{(someUnreadable ? " could be read" : "")}: every "
            + "head test is new and nothing was judged. Give the folder the base run's perf tests wrote their results to.";

    /// <summary>Both runs of <c>picollo compare</c> have results, and no test is in both.</summary>
    public static string NoTestInBothRuns() =>
        "No test has results in both runs: nothing was judged (the table lists "
            + "the new and removed tests). Compare runs of the same perf tests.";

    /// <summary>The <paramref name="run"/> folder (base or head) given to <c>picollo compare</c> does not exist.</summary>
    public static string RunFolderMissing(string run, string folder) =>
        $"The {run} folder {folder} does not exist: give the folder the {run} run's perf tests wrote their results to ({ResultsFolders}).";

    /// <summary><c>picollo report</c> wrote nothing because <paramref name="unreadable"/> result files could not be read.</summary>
    public static string NothingWrittenForUnreadable(int unreadable) =>
        $"Nothing was written: a page without {(unreadable == 1 ? "that test" : "those tests")} would "
            + "pass for the whole run. Run the perf tests again to rewrite the file(s), or remove them.";

    /// <summary><c>picollo report</c> on a folder without a result file: no page is written.</summary>
    public static string NoResultsToReport(string folder) =>
        $"No result file (*.result.json) under {folder}: nothing to report, nothing "
            + $"written. Give the folder the perf tests wrote ({ResultsFolders}).";

    /// <summary>A results folder given to <c>picollo compare</c> or <c>picollo report</c> does not exist.</summary>
    public static string NoResultsFolder(string folder) =>
        $"No folder {folder}: give a run's results folder ({ResultsFolders}).";

    /// <summary>The last line of <c>picollo doctor</c>: whether hardware counters are usable here, and its exit code.</summary>
    public static string HardwareCounters(bool usable, bool simulated) => usable
        ? "Hardware counters are usable here (exit code 0)."
        : "Hardware counters are not usable here (exit code 2): perf tests judge time on "
            + "tsc/task-clock and skip assertions on hardware counters, with the reason above"
            + (simulated
                ? "; simulated counters count instructions and branch misses here instead "
                    + "(Counters = \"sim-instructions,sim-branch-misses\", or Fallback = \"instructions->sim-instructions\")."
                : ".");

    /// <summary>
    /// A time counter two result folders saw slower, by less than <paramref name="gross"/>: what they saw, why it is not a
    /// regression by itself, and how to settle it.
    /// </summary>
    /// <param name="seen">The verdict line as the library words it.</param>
    /// <param name="gross">The change at which compare calls time regressed (1.0: twice as slow).</param>
    public static string TimeUnconfirmedAcrossRuns(string seen, double gross) =>
        $"{seen}: slower in the head run, unconfirmed: the two runs are two processes, and a process's speed "
        + "level alone can move time this much; compare calls time regressed from "
        + string.Create(CultureInfo.InvariantCulture, $"{gross + 1:0.#}× slower. ")
        + "Measure both builds in pairs to decide (picollo ab), or judge against a stored baseline recorded across "
        + "processes.";
}
