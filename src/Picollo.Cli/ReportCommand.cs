using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Picollo.Reporting.Serialization;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo report DIR --html OUT</c>: one run's results as one self-contained page (inline CSS, each test's SVG plot
/// inlined, no script, nothing fetched), to open from a CI artifact.
/// </summary>
internal static class ReportCommand
{
    private const string Style = """
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1b1f24; padding: 0 1em; }
        h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #d0d7de; padding-bottom: .2em; }
        table { border-collapse: collapse; margin: .6em 0; } th, td { border: 1px solid #d0d7de; padding: .25em .6em; }
        th { background: #f6f8fa; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
        .fail { color: #b91c1c; font-weight: 600; } .pass { color: #15803d; } .notice { color: #a16207; }
        .notes { color: #57606a; } svg { max-width: 100%; height: auto; }
        """;

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
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Picollo results</title>\n<style>")
            .Append(Style).Append("</style>\n</head>\n<body>\n");
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
                html.Append(svg[svg.IndexOf("<svg", StringComparison.Ordinal)..]).Append('\n');
        }

        html.Append("</body>\n</html>\n");
        return html.ToString();
    }

    private static string Class(string verdict) => verdict switch
    {
        "fail" => "fail",
        "pass" => "pass",
        _ => "notice",
    };

    private static string Anchor(string test) => "t-" + string.Concat(test.Select(static c => char.IsAsciiLetterOrDigit(c) ? c : '-'));

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    private static string Number(double? value) => value is { } v ? v.ToString("#,##0.###", CultureInfo.InvariantCulture) : "";
}
