using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo compare BASE HEAD</c>: two runs' result folders (e.g. main and a pull request) judged test by test and
/// counter by counter with the baselines' rules, as markdown (a PR comment), JSON or one HTML page; exit code 1 on a
/// regression, 2 when nothing (or not everything) could be judged (docs/CI.md, "Exit codes").
/// </summary>
/// <remarks>
/// Result files do not say which machine ran them, so both runs are taken as this machine's: compare runs of one
/// machine type, as a CI job on one runner label gives them. Machine-speed and busy-machine gates need what only a
/// measurement knows and do not apply here.
/// </remarks>
internal static class CompareCommand
{
    private static readonly JsonSerializerOptions s_json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
    };

    /// <summary>
    /// Writes the comparison in <paramref name="format"/> (markdown, json or html) to <paramref name="console"/> and nothing
    /// else there: every error and warning goes to <paramref name="errors"/>, so the output can be posted as it is.
    /// </summary>
    /// <returns>
    /// <see cref="ExitCodes.Regression"/> when a counter regressed (even if a file was skipped); otherwise
    /// <see cref="ExitCodes.Error"/> when a folder is missing, the head run has no readable result, a file was skipped, or
    /// nothing could be judged (no test in both runs); else <see cref="ExitCodes.Success"/> (docs/CI.md, "Exit codes").
    /// </returns>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, string basePath, string headPath, string format)
    {
        if (format is not ("markdown" or "json" or "html"))
            return Fail(errors, $"--format {format} is not a format compare writes: use markdown (a pull-request comment), json or html.");

        if ((Missing("base", basePath) ?? Missing("head", headPath)) is { } missing)
            return Fail(errors, missing);

        ResultFolder before = ResultFolder.Read(basePath), after = ResultFolder.Read(headPath);
        IEnumerable<(string Run, UnreadableResult File)> skipped =
            before.Unreadable.Select(static f => ("base", f)).Concat(after.Unreadable.Select(static f => ("head", f)));
        foreach ((string run, UnreadableResult file) in skipped)
            errors.Profile.Out.Writer.WriteLine(CliMessages.ResultFileSkipped(file, run));

        if (after.Tests.Count == 0)
        {
            return Fail(errors, after.Unreadable.Count == 0
                ? CliMessages.HeadHasNoResults(after.Folder)
                : CliMessages.HeadResultsUnreadable(after.Folder));
        }

        List<ComparisonRow> rows = Rows(before, after);
        TextWriter output = console.Profile.Out.Writer;
        output.Write(format switch
        {
            "json" => JsonSerializer.Serialize(rows, s_json) + "\n",
            "html" => Html(rows, basePath, headPath, after),
            _ => Markdown(rows, basePath, headPath),
        });

        if (rows.Any(static r => r.Status == "regressed"))
            return ExitCodes.Regression;

        // Exit code 0 says "judged, no regression": a run where nothing was judged must not say it (issue 27).
        if (!rows.Any(static r => r.Judged))
        {
            return Fail(errors, before.Tests.Count == 0
                ? CliMessages.BaseHasNoResults(before.Folder, someUnreadable: before.Unreadable.Count > 0)
                : CliMessages.NoTestInBothRuns());
        }

        return before.Unreadable.Count + after.Unreadable.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
    }

    // A folder of the comparison that does not exist: a sentence naming it; null when it exists.
    private static string? Missing(string run, string path) => Directory.Exists(path)
        ? null
        : CliMessages.RunFolderMissing(run, Path.GetFullPath(path));

    private static int Fail(IAnsiConsole errors, string message)
    {
        errors.Profile.Out.Writer.WriteLine("picollo compare: " + message);
        return ExitCodes.Error;
    }

    // Every counter of every test the head run has, judged against the base run's; then the tests only one run has. A
    // test whose file one run could not read is "not compared", not new or removed.
    private static List<ComparisonRow> Rows(ResultFolder before, ResultFolder after)
    {
        HashSet<string> unreadableBase = [.. before.Unreadable.Select(static f => f.Test)];
        HashSet<string> unreadableHead = [.. after.Unreadable.Select(static f => f.Test)];
        MachineFingerprint machine = MachineFingerprint.Current;
        var rows = new List<ComparisonRow>();
        foreach ((string test, BaselineRecord head) in after.Tests)
        {
            if (!before.Tests.TryGetValue(test, out BaselineRecord? baseline))
            {
                rows.Add(unreadableBase.Contains(test)
                    ? new ComparisonRow(test, "", "not compared", null, null, null, "the base run's result file could not be read")
                    : new ComparisonRow(test, "", "new", null, null, null, "not in the base run"));
                continue;
            }

            var file = new BaselineFile([new BaselineEntry(machine, baseline)]);
            foreach (CounterVerdict verdict in BaselineComparer.Compare(file, machine, head))
            {
                // An infinite change (from 0) is no number JSON can hold, and no percentage a reader can use: null, shown as "from 0".
                double? change = verdict.RelativeChange is { } c && double.IsFinite(c) ? c : null;
                string status = Status(verdict.Status), text = verdict.Text;

                // Two result folders are two processes, each at its own speed level: a time that moved less than a process's
                // level can move is what the runs showed, not a regression they can confirm (docs/VERDICTS.md, "Levels").
                if (status == "regressed" && IsTime(head, verdict.Counter) && !(change >= CompareGrossTimeChange))
                {
                    status = "unconfirmed";
                    const string Regressed = ": regressed";
                    string seen = verdict.Text.EndsWith(Regressed, StringComparison.Ordinal)
                        ? verdict.Text[..^Regressed.Length]
                        : verdict.Text;
                    text = CliMessages.TimeUnconfirmedAcrossRuns(seen, CompareGrossTimeChange);
                }

                rows.Add(new ComparisonRow(test, verdict.Counter, status, verdict.BaselineValue, verdict.CurrentValue, change, text)
                {
                    CohensD = verdict.CohensD,
                    Exact = verdict.Mode == VerdictMode.Exact,
                });
            }
        }

        foreach (string gone in before.Tests.Keys.Except(after.Tests.Keys, StringComparer.Ordinal))
        {
            rows.Add(unreadableHead.Contains(gone)
                ? new ComparisonRow(gone, "", "not compared", null, null, null, "the head run's result file could not be read")
                : new ComparisonRow(gone, "", "removed", null, null, null, "not in the head run"));
        }

        return rows;
    }

    /// <summary>
    /// The slowdown of a time counter that two result folders call a regression by themselves: twice as slow. Below it a
    /// process's speed level can account for the change (process levels 20 % and more apart are common on shared VMs, and a
    /// 19-tick body read +35 % between two runs of unchanged code), so it is reported as unconfirmed.
    /// </summary>
    internal const double CompareGrossTimeChange = 1.0;

    private static bool IsTime(BaselineRecord head, string counter) =>
        head.Find(counter) is { } c && KnownCounters.Of(c.Name, c.Kind).IsTimeLike;

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
        string regressions = regressed > 0 ? $"{regressed} regression(s)" : "no regression";
        text.Append(CultureInfo.InvariantCulture, $"### Picollo: {regressions}{(improved > 0 ? $", {improved} improvement(s)" : "")}\n\n");
        text.Append(CultureInfo.InvariantCulture, $"Base `{basePath}`, head `{headPath}`.\n\n");
        text.Append("| Test | Counter | Verdict | Base | Head | Change | Cohen's d |\n|---|---|---|---:|---:|---:|---:|\n");
        foreach (ComparisonRow row in Ordered(rows))
        {
            string verdict = row.Status == "regressed" ? "**regressed**" : row.Status;
            text.Append(CultureInfo.InvariantCulture, $"| {row.Test} | {row.Counter} | {verdict} | ")
                .Append(CultureInfo.InvariantCulture, $"{Number(row.Base)} | {Number(row.Head)} | {Change(row)} | {D(row.CohensD)} |\n");
        }

        List<ComparisonRow> unconfirmed = [.. rows.Where(static r => r.Status == "unconfirmed")];
        if (unconfirmed.Count > 0)
        {
            text.Append('\n');
            foreach (ComparisonRow row in unconfirmed)
                text.Append(CultureInfo.InvariantCulture, $"- {row.Test}: {row.Text}\n");
        }

        return text.ToString();
    }

    // The markdown's table, coloured, then the head run's plots (each against the baseline that run was judged by).
    private static string Html(List<ComparisonRow> rows, string basePath, string headPath, ResultFolder head)
    {
        int regressed = rows.Count(static r => r.Status == "regressed");
        StringBuilder html = HtmlPage.Start("Picollo: compare");
        string regressions = regressed > 0 ? $"{regressed} regression(s)" : "no regression";
        html.Append(CultureInfo.InvariantCulture, $"<h1>Picollo: {regressions}</h1>\n");
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"notes\">Base {HtmlPage.Encode(basePath)}, ")
            .Append(CultureInfo.InvariantCulture, $"head {HtmlPage.Encode(headPath)}.</p>\n");
        html.Append("<table>").Append(HtmlPage.Headings("Test", "Counter", "Verdict", "Base", "Head", "Change", "Cohen's d")).Append('\n');
        foreach (ComparisonRow row in Ordered(rows))
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr><td>{HtmlPage.Encode(row.Test)}</td><td>{HtmlPage.Encode(row.Counter)}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"{HtmlPage.Class(row.Status)}\">{HtmlPage.Encode(row.Status)}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{Number(row.Base)}</td><td class=\"n\">{Number(row.Head)}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{HtmlPage.Encode(Change(row))}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"n\">{D(row.CohensD)}</td></tr>\n");
        }

        html.Append("</table>\n");
        foreach ((string test, string svg) in head.Plots.OrderBy(static p => p.Key, StringComparer.Ordinal))
        {
            html.Append(CultureInfo.InvariantCulture, $"<h2>{HtmlPage.Encode(test)} (head)</h2>\n")
                .Append(HtmlPage.InlineSvg(svg)).Append('\n');
        }

        return HtmlPage.End(html);
    }

    // Cohen's d of the floors, as the verdict lines print it; empty for counters without one.
    private static string D(double? d) => d is { } value ? value.ToString("0.0;-0.0;0.0", CultureInfo.InvariantCulture) : string.Empty;

    private static IEnumerable<ComparisonRow> Ordered(List<ComparisonRow> rows) =>
        rows.OrderBy(static r => r.Status == "regressed" ? 0 : r.Status == "unconfirmed" ? 1 : r.Status == "improved" ? 2 : 3)
            .ThenBy(static r => r.Test, StringComparer.Ordinal);

    // No percentage from a base of 0 (issue 27): "—" when both runs are 0, "from 0" when the head is not.
    private static string Change(ComparisonRow row) => row switch
    {
        { Base: 0, Head: 0 } => "—",
        { Base: 0, Head: not null } => "from 0",
        { Change: { } c } => c.ToString("+0.0%;-0.0%;0.0%", CultureInfo.InvariantCulture),
        _ => "",
    };

    // As the verdict lines print it: 12,464 bytes stay 12,464, and a collection every 4,000 operations is 2.5E-4, not 0.
    private static string Number(double? value) => value is { } v ? CounterVerdict.Number(v) : "";
}
