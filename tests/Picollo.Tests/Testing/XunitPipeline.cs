using System.Collections.Concurrent;
using System.Reflection;
using Xunit;
using Xunit.Runner.Common;
using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Tests.Testing;

/// <summary>
/// Runs sample test classes through the real xunit.v3 pipeline in-process (discovery, the adapter's discoverers, xunit's
/// runners, the message bus), as <c>dotnet test</c> would, and collects what a runner sees: each test's outcome, message,
/// warnings, output, attachments and traits.
/// </summary>
internal static class XunitPipeline
{
    /// <summary>Discovers and runs <paramref name="types"/>; <paramref name="cancellation"/> cancels the run as a user's Ctrl+C does.</summary>
    public static Task<IReadOnlyList<PipelineTest>> RunAsync(CancellationTokenSource? cancellation, params Type[] types)
    {
        var done = new TaskCompletionSource<IReadOnlyList<PipelineTest>>(TaskCreationOptions.RunContinuationsAsynchronously);

        // A fresh async flow, as xunit's own acceptance tests do: the outer test's TestContext must not leak into the run.
        ThreadPool.UnsafeQueueUserWorkItem(
            async _ =>
            {
                try
                {
                    TestContext.SetForInitialization(diagnosticMessageSink: null, diagnosticMessages: false, internalDiagnosticMessages: false);
                    await using var framework = new XunitTestFramework();
                    Assembly assembly = types[0].Assembly;
                    var controller = new InProcessFrontController(framework, assembly, configFilePath: null);
                    var sink = new Sink();
                    var discovery = TestFrameworkOptions.ForDiscovery(new TestAssemblyConfiguration { PreEnumerateTheories = true });
                    var execution = TestFrameworkOptions.ForExecution(new TestAssemblyConfiguration { MaxParallelThreads = 2 });
                    await controller.FindAndRun(sink, discovery, execution, static _ => true, cancellation ?? new CancellationTokenSource(), types);
                    done.SetResult(Collect([.. sink.Messages]));
                }
                catch (Exception e)
                {
                    done.SetException(e);
                }
            },
            null);
        return done.Task;
    }

    private static List<PipelineTest> Collect(List<IMessageSinkMessage> messages)
    {
        var starting = messages.OfType<ITestStarting>().ToDictionary(static s => s.TestUniqueID);
        var cases = messages.OfType<ITestCaseStarting>().ToDictionary(static c => c.TestCaseUniqueID);
        var finished = messages.OfType<ITestFinished>().ToDictionary(static f => f.TestUniqueID);
        var collections = messages.OfType<ITestCollectionStarting>().ToDictionary(static c => c.TestCollectionUniqueID, static c => c.TestCollectionDisplayName);
        var tests = new List<PipelineTest>();
        // ITestFinished is a result message too (it closes every test): the outcome is the other one.
        foreach (ITestResultMessage result in messages.OfType<ITestResultMessage>().Where(static m => m is not ITestFinished))
        {
            ITestStarting start = starting[result.TestUniqueID];
            (string outcome, string message) = result switch
            {
                ITestPassed => ("Passed", string.Empty),
                ITestSkipped skipped => ("Skipped", skipped.Reason),
                ITestFailed failed => ("Failed", $"{failed.ExceptionTypes[0]}: {failed.Messages[0]}"),
                ITestNotRun => ("NotRun", string.Empty),
                _ => (result.GetType().Name, string.Empty),
            };
            IReadOnlyDictionary<string, IReadOnlyCollection<string>> traits = cases.TryGetValue(result.TestCaseUniqueID, out ITestCaseStarting? c) ? c.Traits : new Dictionary<string, IReadOnlyCollection<string>>();
            IReadOnlyDictionary<string, TestAttachment> attachments = finished.TryGetValue(result.TestUniqueID, out ITestFinished? f) ? f.Attachments : new Dictionary<string, TestAttachment>();
            tests.Add(new PipelineTest(
                start.TestDisplayName, outcome, message, result.Warnings ?? [], result.Output, traits, attachments,
                collections.GetValueOrDefault(result.TestCollectionUniqueID, string.Empty)));
        }

        return tests;
    }

    private sealed class Sink : IMessageSink
    {
        public ConcurrentQueue<IMessageSinkMessage> Messages { get; } = new();

        public bool OnMessage(IMessageSinkMessage message)
        {
            Messages.Enqueue(message);
            return true;
        }
    }
}

/// <summary>One test as a runner reports it.</summary>
internal sealed record PipelineTest(
    string DisplayName,
    string Outcome,
    string Message,
    IReadOnlyList<string> Warnings,
    string Output,
    IReadOnlyDictionary<string, IReadOnlyCollection<string>> Traits,
    IReadOnlyDictionary<string, TestAttachment> Attachments,
    string Collection);
