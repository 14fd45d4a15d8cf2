using System.Globalization;
using System.Text;
using static Picollo.Cli.HtmlPage;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// <c>picollo history report --html FILE</c>: one self-contained page (inline CSS and SVG, no script, nothing fetched): the
/// change points' table, then a trend per test and counter, the series with change points first.
/// </summary>
internal static class HistoryHtml
{
    /// <summary>The page for <paramref name="analyses"/>, read from <paramref name="store"/>.</summary>
    public static string Write(IReadOnlyList<HistorySeriesAnalysis> analyses, string store)
    {
        int alerting = analyses.Sum(static a => a.Changes.Count(static c => c.Alerts));
        StringBuilder html = Start("Picollo history");
        html.Append(CultureInfo.InvariantCulture, $"<h1>{Encode(HistoryReportMessages.Headline(analyses, alerting))}</h1>\n")
            .Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">{Encode(HistoryReportMessages.Source(analyses, store))}</p>\n");
        var changes = analyses.SelectMany(static a => a.Changes.Select(c => (Series: a, Change: c))).ToList();
        if (changes.Count > 0)
        {
            html.Append("<table>")
                .Append(Headings("Test", "Counter", "Machine", "Change", "Commit", "Before → after", "Runs around it", "Status"))
                .Append('\n');
            foreach ((HistorySeriesAnalysis series, HistoryChange change) in changes)
                html.Append(Row(series, change)).Append('\n');
            html.Append("</table>\n");
        }

        foreach (string line in HistoryReportMessages.Unchanged(analyses))
            html.Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">{Encode(line)}</p>\n");

        foreach (HistorySeriesAnalysis series in analyses.OrderBy(static a => a.Changes.Count == 0))
        {
            html.Append(CultureInfo.InvariantCulture, $"<h2>{Encode(series.Key.Test)}: {Encode(series.Key.Counter)}</h2>\n")
                .Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">{Encode(HistoryReportMessages.SeriesSource(series))}</p>\n")
                .Append(HistoryTrendPlot.ToSvg(series));
        }

        return End(html);
    }

    private static string Row(HistorySeriesAnalysis series, HistoryChange change)
    {
        string status = change.Acknowledgement is not null ? "notice" : change.IsRegression ? "fail" : "pass";
        HistorySeriesKey key = series.Key;
        string[] cells =
        [
            Cell(key.Test), Cell(key.Counter), Cell(HistoryText.Machine(key.MachineKey)),
            Cell(HistoryText.Magnitude(change.Point.Magnitude), $"n {status}"), Cell(HistoryText.Commit(change.First.Commit)),
            Cell(HistoryText.BeforeAfter(change, key.Unit), "n"), Cell(HistoryText.Around(change)),
            Cell(HistoryText.Status(change), status),
        ];
        return "<tr>" + string.Concat(cells) + "</tr>";
    }

    private static string Cell(string text, string? cssClass = null) =>
        cssClass is null ? $"<td>{Encode(text)}</td>" : $"<td class=\"{cssClass}\">{Encode(text)}</td>";
}
