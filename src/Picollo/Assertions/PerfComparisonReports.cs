using System.Runtime.CompilerServices;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Assertions;

/// <summary>
/// Puts a comparison's report where its reader looks, as <see cref="PerfResultReports"/> does for a measurement: the
/// markdown (both sides' summaries and the paired table) in the test output, the JSON result (both sides and the paired
/// statistics) in the results folder, attached and with its path printed. <c>PerfContext.Compare</c> reports this way by
/// itself.
/// </summary>
public static class PerfComparisonReports
{
    /// <summary>
    /// Reports <paramref name="comparison"/>: its markdown and file path to <see cref="IPerfAssertionHost.ReportOutput"/>, its JSON result
    /// to <see cref="IPerfAssertionHost.ReportAttachment"/>.
    /// </summary>
    /// <param name="comparison">The comparison.</param>
    /// <param name="testClass">The test class's name; the source file's name without extension when <see langword="null"/>.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="getEnvironmentVariable">
    /// Reads <c>PICOLLO_RESULTS_DIR</c> (else the test project's <c>TestResults/picollo</c>); the process environment when
    /// <see langword="null"/>.
    /// </param>
    /// <param name="callerFilePath">Filled in by the compiler.</param>
    /// <param name="testMethod">Filled in by the compiler.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns>The JSON file's path, or <see langword="null"/> when it could not be written (reported as a notice).</returns>
    public static string? WriteReport(
        this PerfComparison comparison,
        string? testClass = null,
        string? caseName = null,
        Func<string, string?>? getEnvironmentVariable = null,
        [CallerFilePath] string callerFilePath = "",
        [CallerMemberName] string testMethod = "",
        [CallerArgumentExpression(nameof(comparison))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        testClass ??= Path.GetFileNameWithoutExtension(callerFilePath);
        var report = new PerfComparisonReport(PerfResultReports.TestName(testClass, testMethod, caseName), comparison);
        IPerfAssertionHost host = PerfAssertionHost.Current;
        var writer = new PerfReportWriter(
            getEnvironmentVariable: getEnvironmentVariable, projectResultsDirectory: PerfAssertionScope.Current?.ResultsDirectory);
        string? path = null;
        try
        {
            path = writer.WriteComparison(report, testClass, testMethod, caseName);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            string notice =
                AssertionMessages.ComparisonResultNotWritten(writer.ResultsDirectory, e.Message, PerfReportWriter.ResultsDirectoryVariable);
            host.ReportNotice(PerfAssertionMessage.Call(expression, nameof(WriteReport), string.Empty), notice);
        }

        host.ReportOutput(report.ToMarkdown() + (path is null ? string.Empty : $"Report: {path}\n"));
        if (path is not null)
            host.ReportAttachment(path, "Picollo comparison (JSON)");
        return path;
    }
}
