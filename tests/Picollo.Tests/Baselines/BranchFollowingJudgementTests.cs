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
    public void AWordCountFollowingTheSameMoves_Passes()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Record(temp);

        // Unchanged, following the branchy reference beyond the core loop at 1.27 (a word count over another text).
        double Follower(double core, double branch) => core / Core * Math.Pow(branch / Branch / (core / Core), 1.27);
        Should.NotThrow(() =>
            Measured((Follower(1_480, 2_059), 1_480, 2_059), (Follower(Core, 1_311), Core, 1_311)).ShouldNotRegress(
                options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        host.Output[^1].ShouldNotContain("moved with it at a slope");
    }

    private static void Record(TempDirectory temp) =>
        Measured((1.0, Core, Branch)).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

    private static BaselineStoreOptions Options(TempDirectory temp) =>
        new() { GetEnvironmentVariable = TestEnvironment.Local(temp), FreshProcessSpacing = TimeSpan.Zero };

    // The first measurement, then one per remeasurement (the last repeats): the body's scale and the two references.
    private static PerfResult Measured(params (double Scale, double Core, double Branch)[] runs)
    {
        int next = 0;
        PerfResult Next()
        {
            (double scale, double core, double branch) = runs[Math.Min(next++, runs.Length - 1)];
            CounterResult tsc = SyntheticResults.Counter(
                "tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 200).Select(i => (ulong)Math.Round(scale * (198_000 + (i * 100)))));
            PerfResult result = SyntheticResults.Result(tsc);
            PerfResult measured = new([.. result.Counters], result.Options, result.Run with { MachineSpeedNanoseconds = core, BranchSpeedNanoseconds = branch });
            return runs.Length > 1 ? measured.WithRemeasure(Next) : measured;
        }

        return Next();
    }
}
