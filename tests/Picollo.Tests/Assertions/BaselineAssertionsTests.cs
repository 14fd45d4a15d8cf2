using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
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
    // No CI, no update mode, reports in the test's directory: the process environment of whoever runs the tests must not change the outcome.
    private static BaselineStoreOptions Local(TempDirectory temp) => new() { GetEnvironmentVariable = TestEnvironment.Local(temp) };

    [Fact]
    public void FirstRun_WritesReceivedFileAndNotices_AcceptedThenIdenticalRunPasses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        PerfResult result = Allocating(88);

        result.ShouldNotRegress(caseName: null, options: Local(temp), callerFilePath: source, testMethod: "Allocates").ShouldBeSameAs(result);

        string baseline = temp.Combine("SampleTests.Allocates.perf.json"), received = temp.Combine("SampleTests.Allocates.received.perf.json");
        File.Exists(baseline).ShouldBeFalse();
        File.Exists(received).ShouldBeTrue();
        host.Notices.Count.ShouldBe(1);
        host.Notices[0].Assertion.ShouldBe("result.ShouldNotRegress()");
        host.Notices[0].Message.ShouldContain("allocated-bytes, tsc: no baseline file");
        host.Notices[0].Message.ShouldContain(received);

        result.ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        File.Exists(baseline).ShouldBeTrue();
        File.Exists(received).ShouldBeFalse();
        host.Notices.Count.ShouldBe(2);
        host.Notices[1].Message.ShouldStartWith($"Baseline updated: {baseline}");

        Allocating(88).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocates");
        host.Notices.Count.ShouldBe(2);
        File.Exists(received).ShouldBeFalse();
    }

    [Fact]
    public void TestClass_DefaultsToTheSourceFileName_AndCaseNameIsPartOfTheFileName()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Allocating(88).ShouldNotRegress(caseName: "size 64", options: Local(temp), callerFilePath: temp.Combine("MyTests.cs"), testMethod: "M");

        File.Exists(temp.Combine("MyTests.M.size_64.received.perf.json")).ShouldBeTrue();
    }

    [Fact]
    public void Regression_Throws_WithVerdictsDiffTableAndPaths_AfterWritingTheReport()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        PerfResult result = Allocating(176);
        string message = Should.Throw<PerfAssertionException>(() => result.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocates")).Message;

        File.Exists(temp.Combine("SampleTests.Allocates.received.perf.json")).ShouldBeTrue();
        File.Exists(temp.Combine("results", "SampleTests.Allocates.result.json")).ShouldBeTrue();
        File.Exists(temp.Combine("results", "SampleTests.Allocates.svg")).ShouldBeTrue();
        Approvals.Verify(message.Replace(temp.Path, "<temp>", StringComparison.Ordinal), "BaselineAssertions.Regression");
    }

    [Fact]
    public void UnavailableCounters_AreOneLineGroupedByReason_SaidOncePerProcess()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        // Reasons of this test alone: the process remembers what it told, and other tests meet the machine's real ones.
        string noPmu = $"ENOENT (No such file or directory) opening 'cycles': no PMU here ({Guid.NewGuid():N}): enable the vPMU; or rely on software counters.";
        string userOnly = $"User-only mode {Guid.NewGuid():N}.";
        PerfResult Result() => SyntheticResults.Result(
            AllocatedBytes(88),
            SyntheticResults.Unavailable("cycles", noPmu),
            SyntheticResults.Unavailable("context-switches", userOnly),
            SyntheticResults.Unavailable("instructions", noPmu.Replace("'cycles'", "'instructions'", StringComparison.Ordinal)));

        Result().ShouldNotRegress(options: Local(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        host.Unavailable.ShouldBeEmpty();
        (string call, string notice) = host.Notices[^1];
        call.ShouldBe("Result().ShouldNotRegress()");
        notice.ShouldBe($"Not counted on this machine: cycles, instructions (no PMU here); context-switches ({userOnly.TrimEnd('.')}). Said once per run; 'picollo doctor' gives the reason and the fix, and each test's result file keeps it.");
        notice.ShouldNotContain("\n");

        int before = host.Notices.Count;
        Result().ShouldNotRegress(options: Local(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "N");
        host.Notices.Skip(before).ShouldNotContain(n => n.Message.Contains("Not counted on this machine", StringComparison.Ordinal));
    }

    [Fact]
    public void NoCounterAvailable_EachIsReportedAsNotRun()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        PerfResult result = SyntheticResults.Result(SyntheticResults.Unavailable("cycles", "No PMU."), SyntheticResults.Unavailable("instructions", "No PMU."));

        result.ShouldNotRegress(options: Local(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        host.Unavailable.ShouldBe([("cycles", "result.ShouldNotRegress()", "No PMU."), ("instructions", "result.ShouldNotRegress()", "No PMU.")]);
    }

    [Fact]
    public void MaxChange_TightensTheStatisticalVerdict_AndConfidenceLoosensIt()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Timed(shift: 0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");

        // The floor (P10) from 318 to 338 ticks per operation: +6.3 %, under the default 8 %; about 1.8 times its noise.
        PerfResult slower = Timed(shift: 20_000);
        slower.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work");
        string message = Should.Throw<PerfAssertionException>(() => slower.ShouldNotRegress(options: Local(temp), maxChange: 0.05, callerFilePath: source, testMethod: "Work")).Message;
        slower.ShouldNotRegress(options: Local(temp), maxChange: 0.05, confidence: 0.99, callerFilePath: source, testMethod: "Work");

        message.ShouldContain("1 counter regressed: tsc");
        message.ShouldMatch(@"tsc P10 \+6\.3% \(318 → 338 ticks/op\), z = 1\.\d, Cohen's d = \d\.\d, detects ≥ \d+(\.\d)?%: regressed");
    }

    [Fact]
    public void MaxChange_LeavesExactCountersExact()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        Should.Throw<PerfAssertionException>(() => Allocating(89).ShouldNotRegress(options: Local(temp), maxChange: 10, confidence: 0.9999, callerFilePath: source, testMethod: "Allocates"))
            .Message.ShouldContain("allocated-bytes P50 +1.1% (88 → 89 bytes/op): regressed (exact)");
    }

    [Fact]
    public void Notice_NamesTheThresholdsInTheAssertion()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Allocating(88).ShouldNotRegress(options: Local(temp), maxChange: 0.05, confidence: 0.99, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        host.Notices.ShouldHaveSingleItem().Assertion.ShouldBe("Allocating(88).ShouldNotRegress(maxChange: 0.05, confidence: 0.99)");
    }

    [Fact]
    public void AddProcessLevels_WidensTheSpread_SaysSoInTheNotice_AndTheNextProcessAtThatLevelPasses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Timed(shift: 0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");

        // A process at another level: 318 → 368 ticks per operation (+15.7 %), which fails against one level.
        Should.Throw<PerfAssertionException>(() => Timed(shift: 50_000).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work"));
        Timed(shift: 50_000).ShouldNotRegress(options: Local(temp) with { AddProcessLevels = true }, callerFilePath: source, testMethod: "Work");
        Timed(shift: 50_000).ShouldNotRegress(options: Local(temp) with { AddProcessLevels = true }, callerFilePath: source, testMethod: "Work");

        string[] notices = [.. host.Notices.Select(static n => n.Message)];
        notices.ShouldContain(static m => m.StartsWith("Updated ", StringComparison.Ordinal) && m.Contains(": extended by one process: spread tsc 1.157×", StringComparison.Ordinal));
        notices.ShouldContain(static m => m.StartsWith("Updated ", StringComparison.Ordinal) && m.Contains(": extended by one process, its time within the recorded levels (spread tsc 1.157×)", StringComparison.Ordinal));
        BaselineCounter tsc = BaselineStore.Read(temp.Combine("SampleTests.Work.perf.json"))!.Entries.ShouldHaveSingleItem().Record.Find("tsc")!;
        tsc.PerOperation.P10.ShouldBe(318, 1, "the fastest level is kept");
        tsc.Recording!.Processes.ShouldBe(3);
        int before = host.Notices.Count;
        Timed(shift: 50_000).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work");
        host.Notices.Count.ShouldBe(before, "a process at the recorded slower level passes without a notice");
        Should.Throw<PerfAssertionException>(() => Timed(shift: 110_000).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work"))
            .Message.ShouldContain("allowing +16% (the slowest level recorded in 3 processes, +16%)");
    }

    private static PerfResult Timed(ulong shift) => SyntheticResults.Result(TimedCounter(shift));

    private static CounterResult TimedCounter(ulong shift) =>
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => 300_000 + (ulong)(i * 2_000) + shift));

    [Fact]
    public void RunWhoseWarmupStoppedBeforeFinalCode_IsMeasuredAgainBeforeItIsJudged()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "StackAllocates");
        int remeasured = 0;

        // Tier-0 code heap-allocates an array that tier-1 code puts on the stack.
        PerfResult unwarmed = SyntheticResults.Result(WarmupEnd.TimeCap, ["Warmup stopped before tier 1."], AllocatedBytes(40), SyntheticResults.Tsc())
            .WithRemeasure(() => { remeasured++; return Allocating(0); });
        unwarmed.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "StackAllocates");

        remeasured.ShouldBe(1);
        host.Notices.ShouldHaveSingleItem().Message.ShouldStartWith("Baseline updated:");
        host.Output[^1].ShouldContain("Measured again before judging: the first measurement did not run the body's final code (Warmup stopped before tier 1.); this one did.");
    }

    [Fact]
    public void UpdateMode_RecordsTheSettledRemeasurement_NotTheTier0Run()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        PerfResult unwarmed = SyntheticResults.Result(WarmupEnd.TimeCap, AllocatedBytes(40), SyntheticResults.Tsc()).WithRemeasure(() => Allocating(0));

        unwarmed.ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        BaselineStore.Read(temp.Combine("T.M.perf.json"))!.Entries.ShouldHaveSingleItem().Record.Find("allocated-bytes")!.Histogram.GetSummary().P100.Value.ShouldBe(0UL);
        host.Notices.ShouldHaveSingleItem().Message.ShouldStartWith("Baseline updated:");
    }

    [Fact]
    public void UpdateMode_FromRunsThatNeverReachedFinalCode_RecordsTheExactCountersOnly_WithANotice()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Unsettled(40).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        BaselineStore.Read(temp.Combine("T.M.perf.json")).ShouldNotBeNull().Entries.ShouldHaveSingleItem().Record.Counters
            .Select(static c => c.Name).ShouldBe(["allocated-bytes"]);
        host.Notices.ShouldContain(n => n.Message.StartsWith("The baseline entry holds no tsc: no measurement of the recording ran the body's final code (Warmup stopped before tier 1)", StringComparison.Ordinal));
    }

    [Fact]
    public void Regression_SeenTwiceInRunsThatNeverReachedFinalCode_PassesWithANotice()
    {
        // Tier-0 code can allocate what tier-1 code keeps on the stack, and runs slower: two measurements of code that was
        // not final confirm nothing about the code that ships (a busy test host kept bodies at tier 0 for both).
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "M");

        Unsettled(40).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "M");

        host.Notices.ShouldContain(n => n.Message.StartsWith("Not failing on a regression measured on code that was not final in either measurement (allocated-bytes P50 (0 → 40", StringComparison.Ordinal)
            && n.Message.EndsWith("Warmup stopped before tier 1. Run the test alone, or give it a longer TimeBudget, to judge it.", StringComparison.Ordinal));
    }

    [Fact]
    public void MissingBaselineInCIFail_StillFails_WhenTheRunsNeverReachedFinalCode()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var options = new BaselineStoreOptions { GetEnvironmentVariable = TestEnvironment.Local(temp, ci: true), MissingBaselineInCI = MissingBaselinePolicy.Fail };

        Should.Throw<PerfAssertionException>(() => Unsettled(8).ShouldNotRegress(options: options, callerFilePath: temp.Combine("T.cs"), testMethod: "M"))
            .Message.ShouldContain("a baseline is missing in CI (MissingBaselineInCI = Fail)");
    }

    [Fact]
    public void UnconfirmedRegression_PlusMissingBaselineInCIFail_StillFails()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Timed(shift: 0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");
        var options = new BaselineStoreOptions { GetEnvironmentVariable = TestEnvironment.Local(temp, ci: true), MissingBaselineInCI = MissingBaselinePolicy.Fail };

        // tsc regresses once (d > 5, +100 %), and the confirming run is back to normal; allocated-bytes has no baseline.
        PerfResult disturbed = SyntheticResults.Result(TimedCounter(shift: 400_000), AllocatedBytes(8))
            .WithRemeasure(() => SyntheticResults.Result(TimedCounter(shift: 0), AllocatedBytes(8)));
        string message = Should.Throw<PerfAssertionException>(() => disturbed.ShouldNotRegress(options: options, callerFilePath: source, testMethod: "Work")).Message;

        message.ShouldContain("a baseline is missing in CI (MissingBaselineInCI = Fail)");
        message.ShouldMatch(@"tsc P10 -?\d+\.\d% \([\d.,]+ → [\d.,]+ ticks/op\), z = -?\d+\.\d, Cohen's d = -?\d+\.\d, detects ≥ [\d.]+%: pass");
        host.Notices.ShouldContain(n => n.Message.StartsWith("Not failing on an unconfirmed regression", StringComparison.Ordinal));
    }

    // A measurement whose warmup never reaches tier 1, however often it is repeated.
    private static PerfResult Unsettled(ulong bytesPerOperation) =>
        SyntheticResults.Result(WarmupEnd.TimeCap, ["Warmup stopped before tier 1."], AllocatedBytes(bytesPerOperation), SyntheticResults.Tsc())
            .WithRemeasure(() => Unsettled(bytesPerOperation));

    [Fact]
    public void ExactRegression_OfARunOfFinalCode_FailsWithoutMeasuringAgain()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        int remeasured = 0;

        PerfResult settled = SyntheticResults.Result(WarmupEnd.CodeOptimized, AllocatedBytes(40), SyntheticResults.Tsc())
            .WithRemeasure(() => { remeasured++; return Allocating(0); });

        Should.Throw<PerfAssertionException>(() => settled.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocates"));
        remeasured.ShouldBe(0);
    }

    private static PerfResult Allocating(ulong bytesPerOperation) => SyntheticResults.Result(AllocatedBytes(bytesPerOperation), SyntheticResults.Tsc());

    private static CounterResult AllocatedBytes(ulong bytesPerOperation)
        => SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(bytesPerOperation * 1_000, 100));
}
