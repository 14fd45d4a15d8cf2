using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Rules;
using Picollo.IO;
using Picollo.Measurement;
using Picollo.Text;

namespace Picollo.Reporting;

/// <summary>
/// The markdown digest of a run for GitHub Actions' job summary: appended to the file named by
/// <c>$GITHUB_STEP_SUMMARY</c>, one row per test (test, verdict, key counter and its P50 per operation, change).
/// </summary>
/// <remarks>The runner concatenates what every step appends; writing instead of appending would erase other steps' summaries.</remarks>
internal static class StepSummary
{
    /// <summary>The variable GitHub Actions sets to the step's summary file.</summary>
    public const string Variable = "GITHUB_STEP_SUMMARY";

    private const string Title = "Picollo performance tests";

    // Another process's append holds the file for milliseconds: two seconds outlast any of them.
    private static readonly TimeSpan s_lockTimeout = TimeSpan.FromSeconds(2);

    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);
    private static readonly Lock s_gate = new();

    // Per summary file, its length after this process's last append. While the file still has that length nothing was
    // written since, and the next rows can continue the same table; guarded by s_gate.
    private static readonly Dictionary<string, long> s_tableEnds = new(StringComparer.Ordinal);

    /// <summary>The digest of <paramref name="reports"/> in markdown: a heading and one table row per test.</summary>
    /// <param name="reports">The reports.</param>
    /// <returns>The markdown text.</returns>
    public static string ToMarkdown(IEnumerable<PerfReport> reports)
    {
        ArgumentNullException.ThrowIfNull(reports);
        var text = new StringBuilder();
        Table(reports).WriteTo(text, Title);
        return text.ToString();
    }

    /// <summary>
    /// Appends the digest of <paramref name="reports"/> to <c>$GITHUB_STEP_SUMMARY</c> when it is set. Tests report one at a
    /// time, so the appends of one process build one table: the rows continue the table this process appended last while
    /// nothing else was written to the file since; otherwise a heading and a new table start. Each append holds an
    /// exclusive lock on the file, so the appends of tests in other processes (test projects run in parallel) never
    /// interleave with it.
    /// </summary>
    /// <param name="reports">The reports.</param>
    /// <param name="getEnvironmentVariable">Reads a variable; the process environment when <see langword="null"/>. A
    /// seam for tests.</param>
    /// <returns>The file appended to, or <see langword="null"/> when the variable is not set.</returns>
    /// <exception cref="IOException">The file could not be written, or another process held it locked for over two seconds.</exception>
    /// <exception cref="UnauthorizedAccessException">The file is not writable.</exception>
    public static string? Append(IEnumerable<PerfReport> reports, Func<string, string?>? getEnvironmentVariable = null)
    {
        ArgumentNullException.ThrowIfNull(reports);
        string? path = (getEnvironmentVariable ?? Environment.GetEnvironmentVariable)(Variable);
        if (string.IsNullOrWhiteSpace(path))
            return null;

        path = Path.GetFullPath(path);
        MarkdownTable table = Table(reports);
        lock (s_gate)
        {
            // Exclusive, so the appends of tests in other processes never write at the same offset.
            using FileStream file = ExclusiveFile.Open(path, FileMode.Append, FileAccess.Write, s_lockTimeout);
            var text = new StringBuilder();
            if (s_tableEnds.TryGetValue(path, out long end) && end == file.Length)
            {
                table.WriteRowsTo(text);
            }
            else
            {
                // A blank line ends whatever came before (another step's table would otherwise swallow the heading's line).
                if (file.Length > 0)
                    text.Append('\n');
                table.WriteOpenTo(text, Title);
            }

            file.Write(s_utf8.GetBytes(text.ToString()));
            s_tableEnds[path] = file.Length;
        }

        return path;
    }

    private static MarkdownTable Table(IEnumerable<PerfReport> reports)
    {
        var table = new MarkdownTable(("Test", false), ("Verdict", false), ("Key counter", false), ("P50 per op", true), ("Change", true));
        foreach (PerfReport report in reports)
        {
            CounterResult? key = KeyCounter(report);
            CounterVerdict? verdict = key is null ? null : report.GetVerdict(key.Name);
            table.AddRow(
                Cell(report.TestName),
                report.Verdict,
                key?.Name ?? "none available",
                key is null ? string.Empty : $"{BaselineDiffTable.Number(key.P50)} {key.Unit}",
                verdict?.RelativeChange is { } change ? Percent(change) : "—");
        }

        return table;
    }

    // The counter that decided the verdict: the first regressed one, else the first whose regression was not confirmed
    // (a pass row must not hide that), else the first that improved, else the first measured.
    private static CounterResult? KeyCounter(PerfReport report)
    {
        var available = report.Result.Counters.Where(static c => c.IsAvailable).ToList();
        return available.FirstOrDefault(c => report.GetVerdict(c.Name)?.IsRegression == true)
            ?? available.FirstOrDefault(c => report.GetVerdict(c.Name)?.Status == CounterVerdictStatus.Unconfirmed)
            ?? available.FirstOrDefault(c => report.GetVerdict(c.Name)?.Status == CounterVerdictStatus.Improved)
            ?? available.FirstOrDefault();
    }

    // A pipe would end the cell early.
    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);

    private static string Percent(double change) => double.IsInfinity(change)
        ? (change > 0 ? "+∞" : "−∞")
        : (change * 100).ToString("+#,0.0;-#,0.0;0.0", CultureInfo.InvariantCulture) + "%";
}
