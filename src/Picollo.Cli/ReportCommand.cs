using System.Globalization;
using System.Text;
using Picollo.Reporting;
using Picollo.Reporting.Serialization;
using Spectre.Console;
using static Picollo.Cli.HtmlPage;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo report DIR --html OUT</c>: one run's results as one self-contained page (inline CSS, each test's SVG plot
/// inlined, no script, nothing fetched), to open from a CI artifact.
/// </summary>
internal static class ReportCommand
{
    /// <summary>
    /// Writes the page to <paramref name="output"/>; when the folder or a file cannot be read, says why on
    /// <paramref name="errors"/>, writes nothing and returns <see cref="ExitCodes.Error"/>.
    /// </summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, string folder, string output)
    {
        ResultFolder results;
        try
        {
            results = ResultFolder.Read(folder);
        }
        catch (DirectoryNotFoundException e)
        {
            errors.MarkupLine($"[red]{Markup.Escape(e.Message)}[/]");
            return ExitCodes.Error;
        }

        if (results.Unreadable.Count > 0)
        {
            foreach (UnreadableResult file in results.Unreadable)
                errors.MarkupLine($"[red]Not read:[/] {Markup.Escape(file.ToString())}");
            errors.Profile.Out.Writer.WriteLine(CliMessages.NothingWrittenForUnreadable(results.Unreadable.Count));
            return ExitCodes.Error;
        }

        // A run that wrote no result is not a page of nothing: a CI step would upload it as if the run had been shown.
        if (results.Reports.Count == 0)
        {
            errors.Profile.Out.Writer.WriteLine(CliMessages.NoResultsToReport(results.Folder));
            return ExitCodes.Error;
        }

        File.WriteAllText(output, Page(results), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        console.WriteLine($"Wrote {Path.GetFullPath(output)}: {results.Reports.Count} test(s).");
        return ExitCodes.Success;
    }

    private static string Page(ResultFolder results)
    {
        var tests = results.Reports.Values.Select(m => (Model: m, Svg: results.Plots.GetValueOrDefault(m.Test))).ToList();
        string folder = results.Folder;
        StringBuilder html = HtmlPage.Start("Picollo results");
        html.Append(CultureInfo.InvariantCulture, $"<h1>Picollo results: {tests.Count} test(s)</h1>\n")
            .Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">{Encode(folder)}</p>\n");
        html.Append("<table>").Append(Headings("Test", "Verdict", "Samples", "Wall time")).Append('\n');
        foreach ((PerfReportModel model, _) in tests)
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr><td><a href=\"#{Anchor(model.Test)}\">{Encode(model.Test)}</a></td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"{Class(model.Verdict)}\">{Encode(model.Verdict)}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{model.Samples:N0} × {model.OperationsPerSample:N0}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{model.WallTimeMs:N0} ms</td></tr>\n");
        }

        html.Append("</table>\n");

        foreach ((PerfReportModel model, string? svg) in tests)
        {
            html.Append(CultureInfo.InvariantCulture, $"<h2 id=\"{Anchor(model.Test)}\">{Encode(model.Test)}: ")
                .Append(CultureInfo.InvariantCulture, $"<span class=\"{Class(model.Verdict)}\">{Encode(model.Verdict)}</span></h2>\n");
            foreach (string note in model.Notes)
                html.Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">Note: {Encode(note)}</p>\n");
            html.Append("<table>").Append(Headings("Counter", "P50 / op", "P90 / op", "P99 / op", "Verdict")).Append('\n');
            foreach (CounterReportModel counter in model.Counters.Where(static c => c.Available))
            {
                PerOperationModel? p = counter.PerOperation;
                html.Append(CultureInfo.InvariantCulture, $"<tr><td>{Encode(counter.Name)} <small>{Encode(counter.Unit)}</small></td>")
                    .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{Number(p?.P50)}</td><td class=\"n\">{Number(p?.P90)}</td>")
                    .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{Number(p?.P99)}</td>")
                    .Append(CultureInfo.InvariantCulture, $"<td>{Encode(counter.Verdict?.Text ?? "")}</td></tr>\n");
            }

            // Unavailable counters share their reason (every hardware event on a machine without a PMU): one row per reason,
            // grouped as the test's own report groups them.
            IEnumerable<(string Name, string? Reason)> unavailable =
                model.Counters.Where(static c => !c.Available).Select(static c => (c.Name, c.UnavailableReason));
            foreach ((IReadOnlyList<string> names, string reason) in UnavailableCounterGroups.Group(unavailable))
            {
                html.Append(CultureInfo.InvariantCulture, $"<tr><td>{Encode(string.Join(", ", names))}</td>")
                    .Append(CultureInfo.InvariantCulture, $"<td colspan=\"4\" class=\"notes\">unavailable: {Encode(reason)}</td></tr>\n");
            }

            html.Append("</table>\n");
            if (svg is not null)
                html.Append(HtmlPage.InlineSvg(svg)).Append('\n');
        }

        return HtmlPage.End(html);
    }
}
