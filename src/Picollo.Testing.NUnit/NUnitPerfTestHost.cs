using NUnit.Framework;
using NUnit.Framework.Internal;
using Picollo.Assertions;

namespace Picollo.Testing.NUnit;

/// <summary>
/// NUnit's channels for one perf test: the report to the test's output, notices and unavailable counters as <c>Warning:</c>
/// lines of the output (not <c>Assert.Warn</c>: the VSTest adapter reports a test with a warning as Skipped by default, and
/// a test whose other assertions ran must pass), files as test attachments, and a cancellation that fires on
/// <c>[CancelAfter]</c> and when the run is stopped.
/// </summary>
internal sealed class NUnitPerfTestHost : IPerfAssertionHost, IDisposable
{
    private readonly TestExecutionContext _context;
    private readonly CancellationTokenSource _cancellation;
    private readonly Timer _stopWatch;

    public NUnitPerfTestHost(TestExecutionContext context)
    {
        _context = context;
        _cancellation = CancellationTokenSource.CreateLinkedTokenSource(context.CancellationToken);

        // A stopped run (StopRun, a cancelled dotnet test) only sets the execution status: watch it.
        _stopWatch = new Timer(
            static state =>
            {
                var host = (NUnitPerfTestHost)state!;
                if (host._context.ExecutionStatus != TestExecutionStatus.Running)
                    host._cancellation.Cancel();
            },
            this,
            100,
            100);
    }

    /// <summary>The test's cancellation, for <see cref="PerfTestExecution.Run"/>.</summary>
    public CancellationToken CancellationToken => _cancellation.Token;

    /// <inheritdoc/>
    public void ReportUnavailable(string counterName, string assertion, string reason) =>
        _context.OutWriter.WriteLine(
            $"Warning: {assertion} did not run: the counter '{counterName}' is unavailable on this machine. {reason}");

    /// <inheritdoc/>
    public void ReportNotice(string assertion, string message) => _context.OutWriter.WriteLine($"Warning: {assertion}: {message}");

    /// <inheritdoc/>
    public void ReportOutput(string text) => _context.OutWriter.WriteLine(text.TrimEnd('\n'));

    /// <inheritdoc/>
    public void ReportAttachment(string path, string description) => TestContext.AddTestAttachment(path, description);

    /// <inheritdoc/>
    public void Dispose()
    {
        _stopWatch.Dispose();
        _cancellation.Dispose();
    }
}
