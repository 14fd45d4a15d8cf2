using System.Globalization;
using System.Text;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// <c>picollo history report</c>'s markdown, for a pull-request or issue comment: a headline, one row per change point
/// (its commit, magnitude and the runs on each side), and what was not judged.
/// </summary>
internal static class HistoryMarkdown
{
    /// <summary>The report of <paramref name="analyses"/>, read from <paramref name="store"/>.</summary>
    public static string Write(IReadOnlyList<HistorySeriesAnalysis> analyses, string store)
    {
        var changes = analyses.SelectMany(static a => a.Changes.Select(c => (Series: a, Change: c))).ToList();
        var text = new StringBuilder();
        int alerting = changes.Count(static c => c.Change.Alerts);
        text.Append(CultureInfo.InvariantCulture, $"## {HistoryReportMessages.Headline(analyses, alerting)}\n\n");
        text.Append(HistoryReportMessages.Source(analyses, store)).Append("\n\n");
        if (changes.Count > 0)
        {
            text.Append("| Test | Counter | Machine | Change | Commit | Before → after | Runs around it | Status |\n");
            text.Append("|---|---|---|---:|---|---:|---|---|\n");
            foreach ((HistorySeriesAnalysis series, HistoryChange change) in changes)
                text.Append(Row(series, change)).Append('\n');
            text.Append('\n');
        }

        foreach (string line in HistoryReportMessages.Unchanged(analyses))
            text.Append(line).Append("\n\n");
        return text.ToString().TrimEnd('\n') + "\n";
    }

    private static string Row(HistorySeriesAnalysis series, HistoryChange change)
    {
        HistorySeriesKey key = series.Key;
        string magnitude = HistoryText.Magnitude(change.Point.Magnitude);
        return string.Join(
            " | ",
            $"| {Cell(key.Test)}",
            Cell(key.Counter),
            Cell(HistoryText.Machine(key.MachineKey)),
            change.IsRegression ? "**" + magnitude + "**" : magnitude,
            HistoryText.Commit(change.First.Commit),
            Cell(HistoryText.BeforeAfter(change, key.Unit)),
            HistoryReportMessages.RunsAround(change, series.Points.Count),
            Cell(HistoryText.Status(change)) + " |");
    }

    // A pipe inside a cell would end it.
    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
