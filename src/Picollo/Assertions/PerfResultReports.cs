using System.Runtime.CompilerServices;
using System.Text;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Assertions;

/// <summary>
/// Puts a test's report where its reader looks (docs/ARCHITECTURE.md, "Baselines and verdicts"): the markdown (summary and diff tables,
/// verdict lines, operations per sample, overhead) in the test output, the JSON result and the SVG plot in the results folder, attached
/// and with their paths printed, and a row in <c>$GITHUB_STEP_SUMMARY</c> when it is set. <see cref="BaselineAssertions.ShouldNotRegress"/>
/// reports this way by itself; <see cref="WriteReport"/> does it for a result no baseline judges.
/// </summary>
/// <remarks>
/// A report is evidence, not the verdict: a folder or summary file that cannot be written becomes a notice to
/// <see cref="PerfAssertionHost.Current"/> naming the path, the reason and the remedy, and the test's outcome stays what
/// the assertions decided.
/// </remarks>
public static class PerfResultReports
{
    /// <summary>
    /// Reports <paramref name="result"/> without a baseline, as <see cref="BaselineAssertions.ShouldNotRegress"/> would with
    /// one: the markdown report and the file paths to <see cref="IPerfAssertionHost.ReportOutput"/>, the files to
    /// <see cref="IPerfAssertionHost.ReportAttachment"/> (the default host prints to standard output), the digest to
    /// <c>$GITHUB_STEP_SUMMARY</c> when set.
    /// </summary>
    /// <param name="result">The measurement.</param>
    /// <param name="testClass">The test class's name; the source file's name without extension when <see langword="null"/>.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="getEnvironmentVariable">
    /// Reads <c>PICOLLO_RESULTS_DIR</c> (the results folder, else the test project's <c>TestResults/picollo</c>) and
    /// <c>GITHUB_STEP_SUMMARY</c>; the process environment when <see langword="null"/>. A seam for tests.
    /// </param>
    /// <param name="callerFilePath">Filled in by the compiler: the source file, whose name is the default test class.</param>
    /// <param name="testMethod">Filled in by the compiler: the calling method's name.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns>The files written, or <see langword="null"/> when they could not be (reported as a notice).</returns>
    public static PerfReportFiles? WriteReport(
        this PerfResult result,
        string? testClass = null,
        string? caseName = null,
        Func<string, string?>? getEnvironmentVariable = null,
        [CallerFilePath] string callerFilePath = "",
        [CallerMemberName] string testMethod = "",
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        testClass ??= Path.GetFileNameWithoutExtension(callerFilePath);
        var report = new PerfReport(TestName(testClass, testMethod, caseName), result);
        string call = PerfAssertionMessage.Call(expression, nameof(WriteReport), string.Empty);
        return Publish(report, testClass, testMethod, caseName, getEnvironmentVariable, call);
    }

    /// <summary>The test as people know it: <c>Class.Method</c>, or <c>Class.Method(case)</c> for a theory case.</summary>
    internal static string TestName(string testClass, string testMethod, string? caseName)
        => caseName is null ? $"{testClass}.{testMethod}" : $"{testClass}.{testMethod}({caseName})";

    /// <summary>The lines that name the files, as the output and a failure message print them.</summary>
    internal static string FileLines(PerfReportFiles files) => $"Report: {files.JsonPath}\nPlot: {files.SvgPath}\n";

    /// <summary>Writes the files, then reports the output, the attachments and the step-summary row; IO failures become notices.</summary>
    /// <returns>The files written, or <see langword="null"/> when they could not be.</returns>
    internal static PerfReportFiles? Publish(
        PerfReport report,
        string testClass,
        string testMethod,
        string? caseName,
        Func<string, string?>? getEnvironmentVariable,
        string call)
    {
        IPerfAssertionHost host = PerfAssertionHost.Current;
        PerfReportFiles? files = WriteFiles(host, report, testClass, testMethod, caseName, getEnvironmentVariable, call);

        var output = new StringBuilder(report.ToMarkdown());
        if (files is not null)
            output.Append(FileLines(files));
        host.ReportOutput(output.ToString());
        if (files is not null)
        {
            host.ReportAttachment(files.JsonPath, "Picollo result (JSON)");
            host.ReportAttachment(files.SvgPath, "Picollo percentile plot (SVG)");
        }

        AppendStepSummary(host, report, getEnvironmentVariable, call);
        return files;
    }

    private static PerfReportFiles? WriteFiles(
        IPerfAssertionHost host,
        PerfReport report,
        string testClass,
        string testMethod,
        string? caseName,
        Func<string, string?>? getEnvironmentVariable,
        string call)
    {
        var writer = new PerfReportWriter(
            getEnvironmentVariable: getEnvironmentVariable, projectResultsDirectory: PerfAssertionScope.Current?.ResultsDirectory);
        try
        {
            return writer.Write(report, testClass, testMethod, caseName);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            string notice =
                AssertionMessages.ReportFilesNotWritten(writer.ResultsDirectory, e.Message, PerfReportWriter.ResultsDirectoryVariable);
            host.ReportNotice(call, notice);
            return null;
        }
    }

    private static void AppendStepSummary(
        IPerfAssertionHost host, PerfReport report, Func<string, string?>? getEnvironmentVariable, string call)
    {
        try
        {
            StepSummary.Append([report], getEnvironmentVariable);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            string? path = (getEnvironmentVariable ?? Environment.GetEnvironmentVariable)(StepSummary.Variable);
            host.ReportNotice(call, AssertionMessages.StepSummaryNotWritten(path, StepSummary.Variable, e.Message));
        }
    }
}
