using Picollo.Assertions;
using Xunit;

namespace Picollo.Testing.Xunit;

/// <summary>
/// xunit's channels for one perf test: the report to the test's output, notices and unavailable counters as warnings
/// (also written to the output, next to the report they explain, as the NUnit adapter writes them), files as attachments
/// (their bytes: xunit.v3 attachments are values).
/// </summary>
/// <remarks>
/// A test with a warning gets its whole output printed a second time at <c>verbosity=detailed</c>: xunit's runner reporter
/// (DefaultRunnerReporterMessageHandler.HandleTestPassed, in xunit.runner.visualstudio) prints a passing test's output
/// whenever it has warnings, and VSTest's console logger prints the output again. Neither can be told to leave the output
/// out, and a warning is the only channel of a passing test that reaches the default (minimal) verbosity, so notices stay
/// warnings and the report stays in the output: docs/TESTING.md ("Output").
/// </remarks>
internal sealed class XunitPerfTestHost(ITestContext context) : IPerfAssertionHost
{
    /// <inheritdoc/>
    public void ReportUnavailable(string counterName, string assertion, string reason) =>
        Warn($"{assertion} did not run: the counter '{counterName}' is unavailable on this machine. {reason}");

    /// <inheritdoc/>
    public void ReportNotice(string assertion, string message) => Warn($"{assertion}: {message}");

    /// <inheritdoc/>
    public void ReportOutput(string text) => context.TestOutputHelper?.WriteLine(text.TrimEnd('\n'));

    /// <inheritdoc/>
    public void ReportAttachment(string path, string description)
    {
        string mediaType = Path.GetExtension(path) switch
        {
            ".json" => "application/json",
            ".svg" => "image/svg+xml",
            _ => "application/octet-stream",
        };
        context.AddAttachment(Path.GetFileName(path), File.ReadAllBytes(path), replaceExistingValue: true, mediaType);
    }

    private void Warn(string message)
    {
        context.AddWarning(message);
        context.TestOutputHelper?.WriteLine("Warning: " + message);
    }
}
