using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Measurement;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary><c>ShouldNotRegress</c> on real measurements: a body that allocates twice as much as when the baseline was recorded fails.</summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class ShouldNotRegressMeasurementTests
{
    private static readonly PerfOptions s_quick = PerfOptions.Default with
    {
        WarmupTime = TimeSpan.FromMilliseconds(30),
        Samples = 50,
        CalibrationSamples = 20,
        TimeBudget = TimeSpan.FromMilliseconds(300),
        Counters = ["allocated-bytes"],
    };

    // No CI, no update mode, reports in the test's directory: the process environment of whoever runs the tests must not change the outcome.
    private static BaselineStoreOptions Local(TempDirectory temp) => new() { GetEnvironmentVariable = TestEnvironment.Local(temp) };

    [Fact]
    public void DoubledAllocations_FailWithCounterBothValuesAndReceivedPath()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("AllocationTests.cs");
        Perf.Measure(s_quick, MeasuredBodies.Allocate64)
            .ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocate");
        Perf.Measure(s_quick, MeasuredBodies.Allocate64).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocate");

        // A budget that leaves the fresh body time to reach its tier-1 code even in a loaded test run: a regression seen
        // only on code that was final in neither measurement does not fail (BaselineJudge).
        PerfResult doubled = Perf.Measure(s_quick with { TimeBudget = TimeSpan.FromSeconds(5) }, static () =>
        {
            MeasuredBodies.Allocate64();
            MeasuredBodies.Allocate64();
        });
        string message = Should.Throw<PerfAssertionException>(() => doubled.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocate")).Message;

        // The verdict compares bucket values of the per-sample totals: 88 per operation prints as 87.96 or 88.03 at
        // 0.1% precision, depending on where the total falls in its bucket.
        message.ShouldMatch(@"allocated-bytes P50 \+(99\.\d|100\.\d)% \(8[78](\.\d+)? → 17[56](\.\d+)? bytes/op\)");
        message.ShouldContain(temp.Combine("AllocationTests.Allocate.received.perf.json"));
        message.ShouldContain("PICOLLO_UPDATE_BASELINES=1");
        // One update; a 300 ms budget can also end the recording run's warmup before the body's code was known to be final,
        // which the update says in a notice of its own.
        host.Notices.Count(static n => n.Message.StartsWith("Baseline updated:", StringComparison.Ordinal)).ShouldBe(1);
        host.Notices.ShouldAllBe(static n => n.Message.StartsWith("Baseline updated:", StringComparison.Ordinal)
            || n.Message.StartsWith("The baseline entry (allocated-bytes) was recorded from a measurement whose code was not final", StringComparison.Ordinal));
    }

    // A body that does four times the work while the flag is set: a slowdown that a test can switch off between the
    // first measurement and the confirming one, like a disturbance that does not last. Four times, judged at +60 %:
    // a busy host slows whole measurements by up to 1.5× (bench/RESULTS.md, "verdicts"), so neither an undisturbed
    // re-measurement in a slow period (+50 %) nor a 4× body measured against a baseline taken in one (+167 %) can
    // flip these tests.
    private static volatile bool s_slow;

    private const double HostNoise = 0.6;

    private static readonly PerfOptions s_timed = s_quick with { Counters = ["task-clock"], Samples = 100 };

    [Fact]
    public void TimeRegression_NotConfirmedByASecondMeasurement_PassesWithANotice()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("TimingTests.cs");
        s_slow = false;
        Perf.Measure(s_timed, 20_000, Body).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");

        s_slow = true;
        PerfResult disturbed = Perf.Measure(s_timed, 20_000, Body);
        s_slow = false;
        disturbed.ShouldNotRegress(options: Local(temp), maxChange: HostNoise, callerFilePath: source, testMethod: "Work");

        // The disturbance is left out of the verdict either way: the confirming measurement does not regress, or, when the
        // disturbed run's warmup could not show its code was final (a loaded machine, the suite's own tiering backlog), it
        // was measured again before anything was judged. The first way is checked deterministically on synthetic results
        // in BaselineAssertionsTests and PerfResultReportsTests.
        bool unconfirmed = host.Notices.Any(n => n.Message.StartsWith("Not failing on an unconfirmed regression", StringComparison.Ordinal)
            && n.Message.Contains("task-clock", StringComparison.Ordinal));
        bool settledFirst = host.Output[^1].Contains("Measured again before judging", StringComparison.Ordinal);
        (unconfirmed || settledFirst).ShouldBeTrue(string.Join("\n", host.Notices.Select(static n => n.Message)));
    }

    [Fact]
    public void TimeRegression_ConfirmedByASecondMeasurement_Fails()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("TimingTests.cs");
        s_slow = false;
        // Time is recorded from the body's final code only: when the suite held it at tier 0 through a whole recording, the
        // entry holds no task-clock (issue 24), and the test records again, as the notice says.
        int recordings = 0;
        do
            Perf.Measure(s_timed, 20_000, Body).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");
        while (!RecordedTime(temp) && ++recordings < 3);
        TestContext.Current.TestOutputHelper?.WriteLine($"time recorded: {RecordedTime(temp)}, after {recordings + 1} recording(s)");

        s_slow = true;
        try
        {
            PerfResult slower = Perf.Measure(s_timed, 20_000, Body);
            if (!RecordedTime(temp))
            {
                // Never a tier-0 time as the baseline, which would read the 4x chain as improved: the documented notices instead.
                host.Notices.ShouldContain(n => n.Message.StartsWith("The baseline entry holds no task-clock", StringComparison.Ordinal));
                slower.ShouldNotRegress(options: Local(temp), maxChange: HostNoise, callerFilePath: source, testMethod: "Work");
                host.Output[^1].ShouldContain("this machine's entry was recorded without it");
                Assert.Skip($"Not checked that a 4x chain fails as a confirmed regression: none of {recordings} recordings ran the body's "
                    + "final code (the suite kept the JIT busy), so the baseline holds no task-clock to judge it by; the notices saying "
                    + "so were checked.");
            }

            // On a failure, the recording's and the judgement's reports: a busy suite run once passed this 4x chain (issue 24),
            // and only what they measured says why.
            string message = Should.Throw<PerfAssertionException>(
                () => slower.ShouldNotRegress(options: Local(temp), maxChange: HostNoise, callerFilePath: source, testMethod: "Work"),
                string.Join("\n", host.Output.Concat(host.Notices.Select(static n => n.Message)))).Message;

            message.ShouldContain("1 counter regressed: task-clock");
            message.ShouldContain("Confirmed by a second measurement: task-clock P10 +");
        }
        finally
        {
            s_slow = false;
        }
    }

    private static long Body(int n) => MeasuredBodies.Chain(s_slow ? 4 * n : n);

    private static bool RecordedTime(TempDirectory temp) =>
        BaselineStore.Read(temp.Combine("TimingTests.Work.perf.json")) is { } baseline
        && baseline.Entries.Any(static e => e.Record.Find("task-clock") is not null);
}
