using System.Reflection;
using Picollo.Assertions;
using Picollo.Measurement.Engine;
using Picollo.Testing;
using Picollo.Testing.Xunit;
using Picollo.Tests.Measurement;
using Picollo.Tests.UnoptimizedBodies;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// What <see cref="PerfTestExecution"/> does before it measures, seen through a host whose test is already cancelled: the
/// machine-wide lock and the JIT settle stop at a cancelled token, so a test that gets past them without an exception
/// never reached them.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class PerfTestExecutionTests
{
    [Fact]
    public void DebugBuiltTest_IsSkippedBeforeTheJitSettle_AndMeasuresNothing()
    {
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();
        var host = new Host();

        // Issue 27: the JIT settle (at least 150 ms, up to 2 s) ran first, and the skip came after a whole measurement.
        PerfTestOutcome outcome = PerfTestExecution.Run(Describe(nameof(DebugBuiltPerfTests.Chain)), new DebugBuiltPerfTests(), [], host, cancelled.Token);

        outcome.SkipReason.ShouldNotBeNull().ShouldStartWith("The perf test DebugBuiltPerfTests.Chain is in Picollo.Tests.UnoptimizedBodies.dll, built without optimizations (");
        outcome.Results.ShouldBeEmpty();
        host.Notices.ShouldBe(["DebugBuiltPerfTests.Chain: Skipped: " + outcome.SkipReason]);
    }

    [Fact]
    public void DebugBuiltRegion_IsSkippedBeforeTheJitSettle_NamingTheTest()
    {
        // A PerfContext test takes the machine-wide lock before its bodies are known (a region may measure a method of an
        // optimized library), and a cancelled token makes a contended lock throw: this test holds the lock first (waiting
        // for other test processes if it must), so the run's own acquisition is a re-entrant share that never waits, and
        // the cancelled token can only be seen by the JIT settle, which must not run.
        using MeasurementLock? held = MeasurementLock.Acquire(MeasurementLock.DefaultTimeout, CancellationToken.None);
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        PerfTestOutcome outcome = PerfTestExecution.Run(Describe(nameof(DebugBuiltPerfTests.Region)), new DebugBuiltPerfTests(), [], new Host(), cancelled.Token);

        outcome.SkipReason.ShouldNotBeNull().ShouldStartWith("The perf test DebugBuiltPerfTests.Region is in Picollo.Tests.UnoptimizedBodies.dll");
        outcome.Results.ShouldBeEmpty();
    }

    private static PerfTestDescriptor Describe(string method)
    {
        MethodInfo info = typeof(DebugBuiltPerfTests).GetMethod(method)!;
        return new PerfTestDescriptor("[PerfFact]", info, nameof(DebugBuiltPerfTests), null, Path.Combine(Path.GetTempPath(), "DebugBuiltPerfTests.cs"), info.GetCustomAttribute<PerfFactAttribute>()!);
    }

    private sealed class Host : IPerfAssertionHost
    {
        public List<string> Notices { get; } = [];

        public void ReportUnavailable(string counterName, string assertion, string reason) => Notices.Add($"{assertion}: unavailable: {reason}");

        public void ReportNotice(string assertion, string message) => Notices.Add($"{assertion}: {message}");

        public void ReportOutput(string text)
        {
        }

        public void ReportAttachment(string path, string description)
        {
        }
    }
}
