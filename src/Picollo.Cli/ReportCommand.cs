using System.Globalization;
using System.Text;
using System.Text.Json;
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
    /// <summary>Writes the page to <paramref name="output"/>; exit code 1 when the folder or a file cannot be read.</summary>
    public static int Run(IAnsiConsole console, string folder, string output)
    {
        folder = Path.GetFullPath(folder);
        if (!Directory.Exists(folder))
        {
            console.MarkupLine($"[red]No folder {Markup.Escape(folder)}[/]: give a run's results folder (TestResults/picollo, or PICOLLO_RESULTS_DIR).");
            return ExitCodes.Error;
        }

        var tests = new List<(PerfReportModel Model, string? Svg)>();
        foreach (string file in Directory.EnumerateFiles(folder, "*.result.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
        {
            try
            {
                PerfReportModel model = JsonSerializer.Deserialize(File.ReadAllBytes(file), PerfReportJsonContext.Default.PerfReportModel)
                    ?? throw new JsonException("The file holds null.");
                string svgPath = file[..^".result.json".Length] + ".svg";
                tests.Add((model, File.Exists(svgPath) ? File.ReadAllText(svgPath) : null));
            }
            catch (JsonException e)
            {
                console.MarkupLine($"[red]Not read:[/] {Markup.Escape($"{file}: not a Picollo result file: {e.Message}")} Nothing was written.");
                return ExitCodes.Error;
            }
        }

        if (tests.Count == 0)
        {
            console.WriteLine($"No result file (*.result.json) under {folder}: nothing to report, nothing written.");
            return ExitCodes.Success;
        }

        File.WriteAllText(output, Page(folder, tests), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        console.WriteLine($"Wrote {Path.GetFullPath(output)}: {tests.Count} test(s).");
        return ExitCodes.Success;
    }

    private static string Page(string folder, List<(PerfReportModel Model, string? Svg)> tests)
    {
        StringBuilder html = HtmlPage.Start("Picollo results");
        html.Append(CultureInfo.InvariantCulture, $"<h1>Picollo results: {tests.Count} test(s)</h1>\n<p class=\"notes\">{Encode(folder)}</p>\n");
        html.Append("<table><tr><th>Test</th><th>Verdict</th><th>Samples</th><th>Wall time</th></tr>\n");
        foreach ((PerfReportModel model, _) in tests)
            html.Append(CultureInfo.InvariantCulture, $"<tr><td><a href=\"#{Anchor(model.Test)}\">{Encode(model.Test)}</a></td><td class=\"{Class(model.Verdict)}\">{Encode(model.Verdict)}</td><td class=\"n\">{model.Samples:N0} × {model.OperationsPerSample:N0}</td><td class=\"n\">{model.WallTimeMs:N0} ms</td></tr>\n");
        html.Append("</table>\n");

        foreach ((PerfReportModel model, string? svg) in tests)
        {
            html.Append(CultureInfo.InvariantCulture, $"<h2 id=\"{Anchor(model.Test)}\">{Encode(model.Test)}: <span class=\"{Class(model.Verdict)}\">{Encode(model.Verdict)}</span></h2>\n");
            foreach (string note in model.Notes)
                html.Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">Note: {Encode(note)}</p>\n");
            html.Append("<table><tr><th>Counter</th><th>P50 / op</th><th>P90 / op</th><th>P99 / op</th><th>Verdict</th></tr>\n");
            foreach (CounterReportModel counter in model.Counters.Where(static c => c.Available))
            {
                PerOperationModel? p = counter.PerOperation;
                html.Append(CultureInfo.InvariantCulture, $"<tr><td>{Encode(counter.Name)} <small>{Encode(counter.Unit)}</small></td><td class=\"n\">{Number(p?.P50)}</td><td class=\"n\">{Number(p?.P90)}</td><td class=\"n\">{Number(p?.P99)}</td><td>{Encode(counter.Verdict?.Text ?? "")}</td></tr>\n");
            }

            // Unavailable counters share their reason (every hardware event on a machine without a PMU): one row per reason,
            // with the counter's own name taken out of it.
            foreach (IGrouping<string, CounterReportModel> unavailable in model.Counters.Where(static c => !c.Available)
                .GroupBy(static c => (c.UnavailableReason ?? "").Replace($"'{c.Name}'", "'<counter>'", StringComparison.Ordinal), StringComparer.Ordinal))
            {
                html.Append(CultureInfo.InvariantCulture, $"<tr><td>{Encode(string.Join(", ", unavailable.Select(static c => c.Name)))}</td><td colspan=\"4\" class=\"notes\">unavailable: {Encode(unavailable.Key)}</td></tr>\n");
            }

            html.Append("</table>\n");
            if (svg is not null)
                html.Append(HtmlPage.InlineSvg(svg)).Append('\n');
        }

        return HtmlPage.End(html);
    }
}
