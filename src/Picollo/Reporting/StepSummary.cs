using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Measurement;

namespace Picollo.Reporting;

/// <summary>
/// The markdown digest of a run for GitHub Actions' job summary: appended to the file named by
/// <c>$GITHUB_STEP_SUMMARY</c>, one row per test (test, verdict, key counter and its P50 per operation, change).
/// </summary>
/// <remarks>The runner concatenates what every step appends; writing instead of appending would erase other steps' summaries.</remarks>
public static class StepSummary
{
    /// <summary>The variable GitHub Actions sets to the step's summary file.</summary>
    public const string Variable = "GITHUB_STEP_SUMMARY";

    /// <summary>The digest of <paramref name="reports"/> in markdown: a heading and one table row per test.</summary>
    /// <param name="reports">The reports.</param>
    /// <returns>The markdown text.</returns>
    public static string ToMarkdown(IEnumerable<PerfReport> reports)
    {
        ArgumentNullException.ThrowIfNull(reports);
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

        var text = new StringBuilder();
        table.WriteTo(text, "Picollo performance tests");
        return text.ToString();
    }

    /// <summary>Appends the digest to <c>$GITHUB_STEP_SUMMARY</c> when it is set.</summary>
    /// <param name="reports">The reports.</param>
    /// <param name="getEnvironmentVariable">Reads a variable; the process environment when <see langword="null"/>. A seam for tests.</param>
    /// <returns>The file appended to, or <see langword="null"/> when the variable is not set.</returns>
    public static string? Append(IEnumerable<PerfReport> reports, Func<string, string?>? getEnvironmentVariable = null)
    {
        ArgumentNullException.ThrowIfNull(reports);
        string? path = (getEnvironmentVariable ?? Environment.GetEnvironmentVariable)(Variable);
        if (string.IsNullOrWhiteSpace(path))
            return null;

        File.AppendAllText(path, ToMarkdown(reports), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        return path;
    }

    // The counter that decided the verdict: the first regressed one, else the first that changed, else the first measured.
    private static CounterResult? KeyCounter(PerfReport report)
    {
        var available = report.Result.Counters.Where(static c => c.IsAvailable).ToList();
        return available.FirstOrDefault(c => report.GetVerdict(c.Name)?.IsRegression == true)
            ?? available.FirstOrDefault(c => report.GetVerdict(c.Name)?.Status == CounterVerdictStatus.Improved)
            ?? available.FirstOrDefault();
    }

    // A pipe would end the cell early.
    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);

    private static string Percent(double change) => double.IsInfinity(change)
        ? (change > 0 ? "+∞" : "−∞")
        : (change * 100).ToString("+#,0.0;-#,0.0;0.0", CultureInfo.InvariantCulture) + "%";
}
