using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary><c>ShouldNotRegress</c> end to end on real temporary directories: notice, accept, pass, fail.</summary>
public sealed class BaselineAssertionsTests
{
    // No CI, no update mode: the process environment of whoever runs the tests must not change the outcome.
    private static readonly BaselineStoreOptions s_local = new() { GetEnvironmentVariable = static _ => null };

    [Fact]
    public void FirstRun_WritesReceivedFileAndNotices_AcceptedThenIdenticalRunPasses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        PerfResult result = Allocating(88);

        result.ShouldNotRegress(caseName: null, options: s_local, callerFilePath: source, testMethod: "Allocates").ShouldBeSameAs(result);

        string baseline = temp.Combine("SampleTests.Allocates.perf.json"), received = temp.Combine("SampleTests.Allocates.received.perf.json");
        File.Exists(baseline).ShouldBeFalse();
        File.Exists(received).ShouldBeTrue();
        host.Notices.Count.ShouldBe(1);
        host.Notices[0].Assertion.ShouldBe("result.ShouldNotRegress()");
        host.Notices[0].Message.ShouldContain("allocated-bytes: no baseline");
        host.Notices[0].Message.ShouldContain(received);

        result.ShouldNotRegress(options: s_local with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        File.Exists(baseline).ShouldBeTrue();
        File.Exists(received).ShouldBeFalse();
        host.Notices.Count.ShouldBe(2);
        host.Notices[1].Message.ShouldStartWith($"Baseline updated: {baseline}");

        Allocating(88).ShouldNotRegress(options: s_local, callerFilePath: source, testMethod: "Allocates");
        host.Notices.Count.ShouldBe(2);
        File.Exists(received).ShouldBeFalse();
    }

    [Fact]
    public void TestClass_DefaultsToTheSourceFileName_AndCaseNameIsPartOfTheFileName()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Allocating(88).ShouldNotRegress(caseName: "size 64", options: s_local, callerFilePath: temp.Combine("MyTests.cs"), testMethod: "M");

        File.Exists(temp.Combine("MyTests.M.size_64.received.perf.json")).ShouldBeTrue();
    }

    [Fact]
    public void Regression_Throws_WithVerdictsDiffTableAndPaths()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: s_local with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        PerfResult result = Allocating(176);
        string message = Should.Throw<PerfAssertionException>(() => result.ShouldNotRegress(options: s_local, callerFilePath: source, testMethod: "Allocates")).Message;

        File.Exists(temp.Combine("SampleTests.Allocates.received.perf.json")).ShouldBeTrue();
        Approvals.Verify(message.Replace(temp.Path, "<temp>", StringComparison.Ordinal), "BaselineAssertions.Regression");
    }

    [Fact]
    public void UnavailableCounter_IsReportedToTheHost_NotCompared()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        PerfResult result = SyntheticResults.Result(AllocatedBytes(88), SyntheticResults.Unavailable("cycles", "No PMU."));

        result.ShouldNotRegress(options: s_local, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        host.Unavailable.ShouldHaveSingleItem().ShouldBe(("cycles", "result.ShouldNotRegress()", "No PMU."));
    }

    [Fact]
    public void ExactRegression_OfARunWhoseWarmupStoppedBeforeFinalCode_IsMeasuredAgainBeforeFailing()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(0).ShouldNotRegress(options: s_local with { UpdateBaselines = true }, callerFilePath: source, testMethod: "StackAllocates");
        int remeasured = 0;

        // Tier-0 code heap-allocates an array that tier-1 code puts on the stack.
        PerfResult unwarmed = SyntheticResults.Result(WarmupEnd.TimeCap, AllocatedBytes(40), SyntheticResults.Tsc())
            .WithRemeasure(() => { remeasured++; return Allocating(0); });
        unwarmed.ShouldNotRegress(options: s_local, callerFilePath: source, testMethod: "StackAllocates");

        remeasured.ShouldBe(1);
        host.Notices.ShouldContain(n => n.Message.StartsWith("Not failing on an unconfirmed regression", StringComparison.Ordinal));
    }

    [Fact]
    public void ExactRegression_OfARunOfFinalCode_FailsWithoutMeasuringAgain()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(0).ShouldNotRegress(options: s_local with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        int remeasured = 0;

        PerfResult settled = SyntheticResults.Result(WarmupEnd.CodeOptimized, AllocatedBytes(40), SyntheticResults.Tsc())
            .WithRemeasure(() => { remeasured++; return Allocating(0); });

        Should.Throw<PerfAssertionException>(() => settled.ShouldNotRegress(options: s_local, callerFilePath: source, testMethod: "Allocates"));
        remeasured.ShouldBe(0);
    }

    private static PerfResult Allocating(ulong bytesPerOperation) => SyntheticResults.Result(AllocatedBytes(bytesPerOperation), SyntheticResults.Tsc());

    private static CounterResult AllocatedBytes(ulong bytesPerOperation)
        => SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(bytesPerOperation * 1_000, 100));
}
