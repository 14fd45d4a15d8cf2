using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Baselines;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo compare BASE HEAD</c>: two runs' result folders (e.g. main and a pull request) judged test by test and
/// counter by counter with the baselines' rules, as markdown (a PR comment), JSON or one HTML page; exit code 1 on a
/// regression.
/// </summary>
/// <remarks>
/// Result files do not say which machine ran them, so both runs are taken as this machine's: compare runs of one
/// machine type, as a CI job on one runner label gives them. Machine-speed and busy-machine gates need what only a
/// measurement knows and do not apply here.
/// </remarks>
internal static class CompareCommand
{
    private static readonly JsonSerializerOptions s_json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    /// <summary>Writes the comparison in <paramref name="format"/> (markdown or json).</summary>
    public static int Run(IAnsiConsole console, string basePath, string headPath, string format)
    {
        if (format is not ("markdown" or "json" or "html"))
        {
            console.MarkupLine($"[red]Unknown format '{Markup.Escape(format)}'[/]: use markdown, json or html.");
            return ExitCodes.Error;
        }

        ResultFolder before, after;
        try
        {
            before = ResultFolder.Read(basePath);
            after = ResultFolder.Read(headPath);
        }
        catch (DirectoryNotFoundException e)
        {
            console.MarkupLine($"[red]{Markup.Escape(e.Message)}[/]");
            return ExitCodes.Error;
        }

        string[] errors = [.. before.Errors, .. after.Errors];
        if (errors.Length > 0)
        {
            foreach (string error in errors)
                console.MarkupLine($"[red]Not read:[/] {Markup.Escape(error)}");
            return ExitCodes.Error;
        }

        if (after.Tests.Count == 0)
        {
            console.WriteLine($"No result file (*.result.json) under {Path.GetFullPath(headPath)}: nothing to compare. Perf tests write them to TestResults/picollo (or PICOLLO_RESULTS_DIR).");
            return ExitCodes.Success;
        }

        MachineFingerprint machine = MachineFingerprint.Current;
        var rows = new List<ComparisonRow>();
        foreach ((string test, BaselineRecord head) in after.Tests)
        {
            if (!before.Tests.TryGetValue(test, out BaselineRecord? baseline))
            {
                rows.Add(new ComparisonRow(test, "", "new", null, null, null, "not in the base run"));
                continue;
            }

            var file = new BaselineFile([new BaselineEntry(machine, baseline)]);
            foreach (CounterVerdict verdict in BaselineComparer.Compare(file, machine, head))
                rows.Add(new ComparisonRow(test, verdict.Counter, Status(verdict.Status), verdict.BaselineValue, verdict.CurrentValue, verdict.RelativeChange, verdict.Text) { CohensD = verdict.CohensD });
        }

        foreach (string gone in before.Tests.Keys.Except(after.Tests.Keys, StringComparer.Ordinal))
            rows.Add(new ComparisonRow(gone, "", "removed", null, null, null, "not in the head run"));

        TextWriter output = console.Profile.Out.Writer;
        output.Write(format switch
        {
            "json" => JsonSerializer.Serialize(rows, s_json) + "\n",
            "html" => Html(rows, basePath, headPath, after),
            _ => Markdown(rows, basePath, headPath),
        });
        return rows.Any(static r => r.Status == "regressed") ? ExitCodes.Error : ExitCodes.Success;
    }

    private static string Status(CounterVerdictStatus status) => status switch
    {
        CounterVerdictStatus.Regressed => "regressed",
        CounterVerdictStatus.Improved => "improved",
        CounterVerdictStatus.Pass => "pass",
        CounterVerdictStatus.Inconclusive => "inconclusive",
        _ => "not compared",
    };

    private static string Markdown(List<ComparisonRow> rows, string basePath, string headPath)
    {
        int regressed = rows.Count(static r => r.Status == "regressed"), improved = rows.Count(static r => r.Status == "improved");
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"### Picollo: {(regressed > 0 ? $"{regressed} regression(s)" : "no regression")}{(improved > 0 ? $", {improved} improvement(s)" : "")}\n\n");
        text.Append(CultureInfo.InvariantCulture, $"Base `{basePath}`, head `{headPath}`.\n\n");
        text.Append("| Test | Counter | Verdict | Base | Head | Change | Cohen's d |\n|---|---|---|---:|---:|---:|---:|\n");
        foreach (ComparisonRow row in Ordered(rows))
        {
            string verdict = row.Status == "regressed" ? "**regressed**" : row.Status;
            text.Append(CultureInfo.InvariantCulture, $"| {row.Test} | {row.Counter} | {verdict} | {Number(row.Base)} | {Number(row.Head)} | {Change(row.Change)} | {D(row.CohensD)} |\n");
        }

        return text.ToString();
    }

    // The markdown's table, coloured, then the head run's plots (each against the baseline that run was judged by).
    private static string Html(List<ComparisonRow> rows, string basePath, string headPath, ResultFolder head)
    {
        int regressed = rows.Count(static r => r.Status == "regressed");
        StringBuilder html = HtmlPage.Start("Picollo: compare");
        html.Append(CultureInfo.InvariantCulture, $"<h1>Picollo: {(regressed > 0 ? $"{regressed} regression(s)" : "no regression")}</h1>\n");
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">Base {HtmlPage.Encode(basePath)}, head {HtmlPage.Encode(headPath)}.</p>\n");
        html.Append("<table><tr><th>Test</th><th>Counter</th><th>Verdict</th><th>Base</th><th>Head</th><th>Change</th><th>Cohen's d</th></tr>\n");
        foreach (ComparisonRow row in Ordered(rows))
        {
            html.Append(CultureInfo.InvariantCulture,
                $"<tr><td>{HtmlPage.Encode(row.Test)}</td><td>{HtmlPage.Encode(row.Counter)}</td><td class=\"{HtmlPage.Class(row.Status)}\">{HtmlPage.Encode(row.Status)}</td><td class=\"n\">{HtmlPage.Number(row.Base)}</td><td class=\"n\">{HtmlPage.Number(row.Head)}</td><td class=\"n\">{Change(row.Change)}</td><td class=\"n\">{D(row.CohensD)}</td></tr>\n");
        }

        html.Append("</table>\n");
        foreach ((string test, string svg) in head.Plots.OrderBy(static p => p.Key, StringComparer.Ordinal))
            html.Append(CultureInfo.InvariantCulture, $"<h2>{HtmlPage.Encode(test)} (head)</h2>\n").Append(HtmlPage.InlineSvg(svg)).Append('\n');
        return HtmlPage.End(html);
    }

    // Cohen's d of the floors, as the verdict lines print it; empty for counters without one.
    private static string D(double? d) => d is { } value ? value.ToString("0.0;-0.0;0.0", CultureInfo.InvariantCulture) : string.Empty;

    private static IEnumerable<ComparisonRow> Ordered(List<ComparisonRow> rows) =>
        rows.OrderBy(static r => r.Status == "regressed" ? 0 : r.Status == "improved" ? 1 : 2).ThenBy(static r => r.Test, StringComparer.Ordinal);

    private static string Change(double? change) => change is { } c ? c.ToString("+0.0%;-0.0%;0.0%", CultureInfo.InvariantCulture) : "";

    private static string Number(double? value) => value is { } v ? v.ToString("#,##0.###", CultureInfo.InvariantCulture) : "";
}
