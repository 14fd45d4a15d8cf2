using System.Globalization;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// What <c>picollo history report</c>, <c>check</c> and <c>acknowledge</c> say in sentences: the headline, where the runs
/// came from, what was not judged, why a check passed, failed or could not judge, and what an acknowledgement marked or
/// why it marked nothing. One method per situation, taking the facts it states; the golden file
/// <c>HistoryReportMessages.approved.md</c> shows every one.
/// </summary>
internal static class HistoryReportMessages
{
    /// <summary>The report's headline.</summary>
    public static string Headline(IReadOnlyList<HistorySeriesAnalysis> analyses, int alerting)
    {
        int changes = analyses.Sum(static a => a.Changes.Count);
        return $"Picollo history: {Count(analyses.Count, "series", "series")}, {Count(changes, "change point", "change points")}"
            + (alerting > 0 ? $", {Count(alerting, "regression", "regressions")} not acknowledged" : string.Empty);
    }

    /// <summary>Where the report's runs come from: the store, the runs, the time they span.</summary>
    public static string Source(IReadOnlyList<HistorySeriesAnalysis> analyses, string store)
    {
        var points = analyses.SelectMany(static a => a.Points).ToList();
        int runs = points.Select(static p => p.RunId).Distinct().Count();
        if (runs == 0)
            return $"Store: {store}, no runs.";
        string from = points.Min(static p => p.TimeUtc).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        string to = points.Max(static p => p.TimeUtc).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        int machines = analyses.Select(static a => a.Key.MachineKey).Distinct().Count();
        return $"Store: {store}; {Count(runs, "run", "runs")} from {from} to {to} on {Count(machines, "machine", "machines")}.";
    }

    /// <summary>Under a series' heading on the page: its machine and how many runs it has.</summary>
    public static string SeriesSource(HistorySeriesAnalysis series) =>
        $"Machine {series.Key.MachineKey}, {Count(series.Points.Count, "run", "runs")}; each run's "
        + (series.Key.Exact ? "value per operation, exact." : "per-operation value (P10 for time, the mean for other counters).");

    /// <summary>The markdown's "runs around it" cell: the runs on each side and how many runs each segment has.</summary>
    public static string RunsAround(HistoryChange change, int runs) =>
        $"{HistoryText.Around(change)}; {Count(change.Point.Index, "run", "runs")} before, {runs - change.Point.Index} from it";

    /// <summary>The lines under the table: the series with no change point, and the ones too short to judge.</summary>
    public static IEnumerable<string> Unchanged(IReadOnlyList<HistorySeriesAnalysis> analyses)
    {
        int steady = analyses.Count(static a => a.Judged && a.Changes.Count == 0);
        if (steady > 0)
            yield return $"{Count(steady, "series has", "series have")} no change point.";
        var young = analyses.Where(static a => !a.Judged).ToList();
        if (young.Count > 0)
        {
            string names = string.Join(", ", young.Take(5).Select(static a => $"{a.Key.Test} {a.Key.Counter} ({Runs(a)})"))
                + (young.Count > 5 ? $" and {young.Count - 5} more" : string.Empty);
            yield return $"Not judged yet, too few runs: {names}. A series is judged from "
                + $"{HistoryAnalyzer.FewestRuns(ChangePoints.ChangePointOptions.Default)} runs on, the fewest in which a change can "
                + "be found (docs/HISTORY.md, \"Change points\").";
        }
    }

    /// <summary><c>history check</c> found alerting change points among the newest runs.</summary>
    public static string CheckFailed(int alerts, int newest) =>
        $"picollo history check: {Count(alerts, "change point", "change points")} among the newest {newest} runs "
        + "made a test slower or costlier (above). If it was intended, mark it so and it stops alerting: "
        + "picollo history acknowledge --test <test> --counter <counter> --commit <commit> --note \"why\". "
        + "To find the commit between two runs, picollo bisect --good <the run before's commit> --bad <the commit> --test <test>.";

    /// <summary><c>history check --bisect</c> starts picollo bisect on the newest alerting change.</summary>
    public static string Bisecting(string test, string counter, string good, string bad) =>
        $"picollo history check: bisecting {test}'s {counter} change between {HistoryText.Commit(good)} (the run before it) "
        + $"and {HistoryText.Commit(bad)} (the first run with it), as picollo bisect --good {good} --bad {bad} --test {test} does.";

    /// <summary><c>history check --bisect</c> cannot: a run on either side of the change recorded no commit.</summary>
    public static string CannotBisectWithoutCommits(string test) =>
        $"picollo history check: cannot bisect {test}'s change: a run on either side of it recorded no commit "
        + "(picollo history add ran outside a git repository and without --commit).";

    /// <summary><c>history check --newest</c> below 1.</summary>
    public static string NewestNotPositive(int newest) =>
        $"picollo history check: --newest must be 1 or more, not {newest}: it counts each series' newest runs a change must lie among.";

    /// <summary><c>history report --html</c> wrote its page.</summary>
    public static string PageWritten(string path, int series) => $"Wrote {path}: {Count(series, "series", "series")}.";

    /// <summary><c>history acknowledge --commit</c> is not a commit hash.</summary>
    public static string NotACommit(string commit) =>
        $"picollo history acknowledge: '{commit}' is not a commit: give its hash, 7 characters or more, as the report's "
        + "Commit column shows it.";

    /// <summary><c>history acknowledge --note</c> is empty.</summary>
    public static string EmptyNote() =>
        "picollo history acknowledge: --note is empty: say why the change is intended; the report shows it beside the change.";

    /// <summary><c>history acknowledge --test</c> matched no test of the store (on that machine).</summary>
    public static string NoSuchTest(string test, string store, string? machine, IReadOnlyList<string> nearest) =>
        $"picollo history acknowledge: no test named '{test}' has runs in {store}"
        + (machine is null ? string.Empty : $" on machine {machine}")
        + (nearest.Count > 0 ? $"; the nearest names: {string.Join(", ", nearest)}." : ".")
        + " Name it as the report does (Class.Method), or a pattern (Class.*).";

    /// <summary><c>history acknowledge --counter</c> is not a counter of the test.</summary>
    public static string NoSuchCounter(string test, string counter, string store, IReadOnlyList<string> counters) =>
        $"picollo history acknowledge: '{test}' has no counter named '{counter}' in {store}; it has {string.Join(", ", counters)}.";

    /// <summary><c>history acknowledge --commit</c> is not the commit of any run of the series (but its first).</summary>
    public static string CommitNotInSeries(string test, string counter, string store, string commit) =>
        $"picollo history acknowledge: no run of {test} {counter} in {store} is at commit {commit} "
        + "(the first run of a series cannot be a change): copy the commit from the report's Commit column.";

    /// <summary><c>history acknowledge</c> marked the change in these series.</summary>
    public static string Acknowledged(string commit, IReadOnlyList<string> series) =>
        $"picollo history: the change at {HistoryText.Commit(commit)} is marked intended for {Count(series.Count, "series", "series")} "
        + $"({string.Join(", ", series)}): it no longer alerts, and the runs from it on are the new normal.";

    /// <summary>
    /// <c>history check</c> found no alerting change point among the newest runs of the series it could judge; the others
    /// (<paramref name="young"/>) are too short yet.
    /// </summary>
    public static string CheckPassed(int judged, int newest, int young) =>
        $"picollo history check: no regression among the newest {newest} runs of {Count(judged, "series", "series")}"
        + (young > 0
            ? $"; {Count(young, "series has", "series have")} too few runs to judge yet (picollo history report names them)."
            : ".");

    /// <summary><c>history check</c> could not judge any series: none, or none long enough.</summary>
    public static string CannotJudge(int series, string store) => series == 0
        ? $"picollo history check: {store} holds no runs (for this filter and branch). "
            + "Add runs with picollo history add <results-folder> after each perf-test run."
        : $"picollo history check: none of the {Count(series, "series", "series")} in {store} has enough runs to judge yet "
            + $"({HistoryAnalyzer.FewestRuns(ChangePoints.ChangePointOptions.Default)} are needed); keep adding runs.";

    // "6 runs", or "10 runs since the change acknowledged at c0ffee1".
    private static string Runs(HistorySeriesAnalysis series) =>
        series.Since == 0 ? Count(series.Points.Count, "run", "runs")
            : $"{Count(series.Points.Count - series.Since, "run", "runs")} since the change acknowledged at "
                + HistoryText.Commit(series.Points[series.Since].Commit);

    private static string Count(int n, string one, string many) =>
        $"{n.ToString("N0", CultureInfo.InvariantCulture)} {(n == 1 ? one : many)}";
}
