using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// A judgement learns from its own measurements how far the body follows the branchy reference (issue 24, requirement 2):
/// a 2× chain that passed on the branchy bound beside a busy sibling core (bench verdicts run 4, spinner / short) fails once
/// the reference moves and the chain does not, while a word count that follows it keeps its allowance. Synthetic results
/// of 200 ticks per operation times a scale, with the references a measurement reads; the baseline file is real.
/// </summary>
public sealed class BranchFollowingJudgementTests
{
    // At recording: the core reference loop 1,300 ns per 1,000 steps, the branchy reference 1,061 ns per 1,000 characters.
    private const double Core = 1_300, Branch = 1_061;

    [Fact]
    public void ADoubledChain_PassingBesideASlowBranchyReference_FailsWhenTheReferenceMovesAndTheChainDoesNot()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Record(temp);

        // First beside the reference 1.94× slower and the core 1.14×: 2.3× is inside what a word count may show. Measured again
        // in other conditions, the reference is back near its recorded speed and the chain barely moved.
        string message = Should.Throw<PerfAssertionException>(() =>
            Measured((2.3, 1_480, 2_059), (2.07, Core, 1_311), (2.07, Core, 1_300)).ShouldNotRegress(
                options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        message.ShouldContain("this body's time moved with it at a slope of -0.07");
        message.ShouldContain("Confirmed by a second measurement");
    }

    [Fact]
    public void AWordCountFollowingTheSameMoves_Passes_ThoughItsFloorsJitterAgainstTheSlope()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Record(temp);

        // Unchanged, following the branchy reference beyond the core loop at 1.0, in the host's slow state, then out of it with
        // its floor 4 % high and the reference 4 % low (the slope reads 0.78), then in it again: the margin keeps it inside the
        // bound. Without the margin the third measurement and its confirmation would fail it.
        double Follower(double core, double branch) => core / Core * (branch / Branch / (core / Core));
        Should.NotThrow(() => Measured(
                (Follower(1_480, 2_059), 1_480, 2_059),
                (Follower(Core, 1_311) * 1.04, Core, 1_311 * 0.96),
                (Follower(1_480, 2_059), 1_480, 2_059))
            .ShouldNotRegress(options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        host.Output[^1].ShouldContain("between this test's measurements this body's time moved with it at a slope of 0.7");
    }

    [Fact]
    public void ABusyMeasurementNextToAQuietOne_TeachesNothing()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Record(temp);

        // The same doubled chain, but measured again beside other processes that keep every other core busy (+17-47 % for
        // reasons of their own): that pair does not say whether the chain follows the branchy reference, so the bound stays
        // a word count's and the chain passes inside it, its line saying what it allowed.
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        Should.NotThrow(() =>
            Measured((2.3, 1_480, 2_059, 0), (2.07, Core, 1_311, others)).ShouldNotRegress(
                options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        host.Output[^1].ShouldNotContain("moved with it at a slope");
        host.Output[^1].ShouldContain("branchy code ran 94% slower than at recording");
    }

    [Fact]
    public void TwoMeasurementsBesideTheSameNeighbour_Teach()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Record(temp);

        // Another process kept the machine busy through both measurements (+15 % allowed in each): the pair tells, and the
        // doubled chain fails.
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        string message = Should.Throw<PerfAssertionException>(() =>
            Measured((2.3, 1_480, 2_059, others), (2.07, Core, 1_311, others + 0.05)).ShouldNotRegress(
                options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        message.ShouldContain("this body's time moved with it at a slope of -0.0");
    }

    private static void Record(TempDirectory temp) => Measured((1.0, Core, Branch)).ShouldNotRegress(
        options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

    private static BaselineStoreOptions Options(TempDirectory temp) =>
        new() { GetEnvironmentVariable = TestEnvironment.Local(temp), FreshProcessSpacing = TimeSpan.Zero };

    private static PerfResult Measured(params (double Scale, double Core, double Branch)[] runs) =>
        Measured([.. runs.Select(static r => (r.Scale, r.Core, r.Branch, 0.0))]);

    // The first measurement, then one per remeasurement (the last repeats): the body's scale, the two references and the cores
    // other processes kept busy.
    private static PerfResult Measured(params (double Scale, double Core, double Branch, double Others)[] runs)
    {
        int next = 0;
        PerfResult Next()
        {
            (double scale, double core, double branch, double others) = runs[Math.Min(next++, runs.Length - 1)];
            IEnumerable<ulong> samples = Enumerable.Range(0, 200).Select(i => (ulong)Math.Round(scale * (198_000 + (i * 100))));
            CounterResult tsc = SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, samples);
            PerfResult result = SyntheticResults.Result(tsc);
            PerfRunInfo run = result.Run with
            {
                MachineSpeedNanoseconds = core,
                BranchSpeedNanoseconds = branch,
                OtherProcessesCores = others,
            };
            var measured = new PerfResult([.. result.Counters], result.Options, run);
            return runs.Length > 1 ? measured.WithRemeasure(Next) : measured;
        }

        return Next();
    }
}
