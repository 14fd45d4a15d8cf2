using Picollo.Assertions;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

public sealed class CounterResultAssertionsTests
{
    [Fact]
    public void P99AboveTheBound_Fails_WithCallExpectedMeasuredAndTable()
    {
        CounterResult tsc = SyntheticResults.Tsc();

        var e = Should.Throw<PerfAssertionException>(() => tsc.ShouldHaveP99AtMost(350));

        Approvals.Verify(e.Message, "CounterResultAssertions.P99Failure");
    }

    [Fact]
    public void BoundsThatHold_Pass_AndChain()
    {
        CounterResult tsc = SyntheticResults.Tsc();

        tsc.ShouldHaveP50AtMost(349).ShouldHaveP90AtMost(389).ShouldHaveP99AtMost(398).ShouldHaveMaxAtMost(399).ShouldHaveMeanAtMost(349.5)
            .ShouldHavePercentileAtMost(25, 324).ShouldBeSameAs(tsc);
        Should.Throw<PerfAssertionException>(() => tsc.ShouldHaveMeanAtMost(349.4)).Message.ShouldContain("should have mean at most");
    }

    [Fact]
    public void ZeroBudgetAtP50_Passes_WhenMostSamplesAreZero_ButFailsAtTheMaximum()
    {
        CounterResult misses = SyntheticResults.Counter("branch-misses", "events", CounterKind.Hardware, 1, [0, 0, 0, 1]);

        misses.ShouldHaveZeroBudget(atPercentile: 50);
        Should.Throw<PerfAssertionException>(() => misses.ShouldHaveZeroBudget()).Message.ShouldStartWith("misses\n    should have P100 at most\n0 events per operation\n    but was\n1 events per operation");
    }

    [Fact]
    public void Budget_KeepsFractionalValuesPerOperation()
    {
        // 10 misses per 1,000 operations: 0.01 per operation, exactly.
        CounterResult misses = SyntheticResults.Counter("branch-misses", "events", CounterKind.Hardware, 1_000, [10, 10, 10, 12]);

        misses.P50.ShouldBe(0.01);
        misses.ShouldHaveBudget(0.01, atPercentile: 50);
        Should.Throw<PerfAssertionException>(() => misses.ShouldHaveBudget(0.01)).Message.ShouldContain("0.012 events per operation");
    }

    [Fact]
    public void UnavailableCounter_WithTheDefaultHost_ThrowsTheDistinctExceptionWithReason()
    {
        CounterResult cycles = SyntheticResults.Unavailable("cycles", "No PMU here: run on bare metal.");

        var e = Should.Throw<PerfCounterUnavailableException>(() => cycles.ShouldHaveP99AtMost(20_000));

        e.Message.ShouldBe("cycles.ShouldHaveP99AtMost(20,000) did not run: the counter 'cycles' is unavailable on this machine. No PMU here: run on bare metal.");
        e.CounterName.ShouldBe("cycles");
        e.Reason.ShouldBe("No PMU here: run on bare metal.");
    }

    [Fact]
    public void UnavailableCounter_WithAnAdapterHost_IsReportedAndDoesNotThrow()
    {
        var host = new RecordingHost();
        CounterResult cycles = SyntheticResults.Unavailable("cycles", "No PMU.");
        using (PerfAssertionHost.Use(host))
            cycles.ShouldHaveZeroBudget(atPercentile: 50).ShouldBeSameAs(cycles);

        host.Reports.ShouldBe([("cycles", "cycles.ShouldHaveZeroBudget(atPercentile: 50)", "No PMU.")]);
        PerfAssertionHost.Current.ShouldBeSameAs(PerfAssertionHost.Throwing);
    }

    [Fact]
    public void Ipc_BelowTheBound_FailsWithBothTables()
    {
        PerfResult result = SyntheticResults.Result(
            SyntheticResults.Counter("instructions", "events", CounterKind.Hardware, 100, [10_000, 10_000, 10_200]),
            SyntheticResults.Counter("cycles", "events", CounterKind.Hardware, 100, [5_000, 5_100, 4_900]));

        result.ShouldHaveIpcAtLeast(2.0);
        var e = Should.Throw<PerfAssertionException>(() => result.ShouldHaveIpcAtLeast(2.5));

        Approvals.Verify(e.Message, "PerfResultAssertions.IpcFailure");
    }

    [Fact]
    public void MissesPerKiloInstruction_AboveTheBound_Fails_AndMissingCounterGoesToTheHost()
    {
        PerfResult result = SyntheticResults.Result(
            SyntheticResults.Counter("instructions", "events", CounterKind.Hardware, 1, [1_000, 1_000]),
            SyntheticResults.Counter("branch-misses", "events", CounterKind.Hardware, 1, [3, 5]));

        result.ShouldHaveMissesPerKiloInstructionsAtMost("branch-misses", 4);
        Should.Throw<PerfAssertionException>(() => result.ShouldHaveMissesPerKiloInstructionsAtMost("branch-misses", 3.9))
            .Message.ShouldStartWith("result\n    should have branch-misses per 1,000 instructions at most\n3.9\n    but was\n4\n");
        Should.Throw<PerfCounterUnavailableException>(() => result.ShouldHaveIpcAtLeast(1)).CounterName.ShouldBe("cycles");
    }

    private sealed class RecordingHost : IPerfAssertionHost
    {
        public List<(string Counter, string Assertion, string Reason)> Reports { get; } = [];

        public void ReportUnavailable(string counterName, string assertion, string reason) => Reports.Add((counterName, assertion, reason));

        public void ReportNotice(string assertion, string message) => throw new InvalidOperationException($"Unexpected notice: {message}");

        public void ReportOutput(string text) => throw new InvalidOperationException($"Unexpected output: {text}");

        public void ReportAttachment(string path, string description) => throw new InvalidOperationException($"Unexpected attachment: {path}");
    }
}
