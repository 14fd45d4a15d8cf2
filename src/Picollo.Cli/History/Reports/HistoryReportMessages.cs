using System.Globalization;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// What <c>picollo history report</c> and <c>check</c> say in sentences: the headline, where the runs came from, what was
/// not judged, and why a check passed, failed or could not judge. One method per situation, taking the facts it states.
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

    /// <summary>The lines under the table: the series with no change point, and the ones too short to judge.</summary>
    public static IEnumerable<string> Unchanged(IReadOnlyList<HistorySeriesAnalysis> analyses)
    {
        int steady = analyses.Count(static a => a.Judged && a.Changes.Count == 0);
        if (steady > 0)
            yield return $"{Count(steady, "series has", "series have")} no change point.";
        var young = analyses.Where(static a => !a.Judged).ToList();
        if (young.Count > 0)
        {
            string names = string.Join(", ", young.Take(5).Select(static a => $"{a.Key.Test} {a.Key.Counter} ({a.Points.Count})"))
                + (young.Count > 5 ? $" and {young.Count - 5} more" : string.Empty);
            yield return $"Not judged yet, too few runs: {names}. A series is judged from "
                + $"{ChangePoints.ChangePointOptions.Default.MinSegment * 2} runs on (two minimum segments: docs/HISTORY.md).";
        }
    }

    /// <summary><c>history check</c> found alerting change points among the newest runs.</summary>
    public static string CheckFailed(int alerts, int newest) =>
        $"picollo history check: {Count(alerts, "change point", "change points")} among the newest {newest} runs "
        + "made a test slower or costlier (above). If it was intended, mark it so and it stops alerting: "
        + "picollo history acknowledge --test <test> --counter <counter> --commit <commit> --note \"why\". "
        + "To find the commit in a range, picollo bisect --good <commit before> --bad <commit>.";

    /// <summary><c>history check</c> found no alerting change point among the newest runs.</summary>
    public static string CheckPassed(int judged, int newest) =>
        $"picollo history check: no regression among the newest {newest} runs of {Count(judged, "series", "series")}.";

    /// <summary><c>history check</c> could not judge any series: none, or none long enough.</summary>
    public static string CannotJudge(int series, string store) => series == 0
        ? $"picollo history check: {store} holds no runs (for this filter and branch). Add runs with picollo history add <results-folder> after each perf-test run."
        : $"picollo history check: none of the {Count(series, "series", "series")} in {store} has enough runs to judge yet "
            + $"({ChangePoints.ChangePointOptions.Default.MinSegment * 2} are needed); keep adding runs.";

    private static string Count(int n, string one, string many) => $"{n.ToString("N0", CultureInfo.InvariantCulture)} {(n == 1 ? one : many)}";
}
