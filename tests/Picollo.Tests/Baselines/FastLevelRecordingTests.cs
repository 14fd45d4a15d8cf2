using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// A recording that finds the machine slower than its remembered fast level (issue 24, docs/VERDICTS.md "Recording a
/// baseline"): it measures again to reach the fast level, except where only the host's branchy state was slower and the
/// body did not follow it there, which keeps the slower state and with it the sight of every later run in it. Real files:
/// the memory in a temporary cache folder, the baseline beside it; synthetic results of 200 ticks per operation.
/// </summary>
public sealed class FastLevelRecordingTests
{
    private const double Core = 900;

    [Fact]
    public void SlowerOnlyInTheBranchyState_ABodyThatRunsNoFasterAtTheFastLevel_IsRecordedInTheSlowerState()
    {
        using var temp = new TempDirectory();
        RememberFastLevel(temp, branch: 600);

        // Recorded with the branchy reference at 900 ns (1.5× the fastest remembered); at the fast level it runs as fast.
        BaselineJudgement judgement = Record(temp, Sequence((1.0, 900), (1.0, 900), (1.0, 600)));

        BaselineRecord recorded = Recorded(temp);
        recorded.BranchSpeed.ShouldBe(900, "the slower state kept: later runs in it need no branchy bound");
        judgement.Remeasurement.ShouldNotBeNull().ShouldContain(
            "Recorded in the host's slower branchy state (the branchy reference at 900 ns): measurement 2 found the machine's fast "
            + "level (600 ns) and this body's time followed the reference at a slope of 0.00 there");

        // Judged later in that state, a +30 % body has no bound to hide in.
        BaselineJudgement later = BaselineJudge.Judge(
            Measured(1.3, 900), temp.Combine("T.cs"), "T", "M", null, Options(temp));
        later.Check.Verdicts.Single(static v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Regressed);
    }

    [Fact]
    public void ABodyThatFollowsTheBranchyState_IsRecordedAtTheFastLevel_AsBefore()
    {
        using var temp = new TempDirectory();
        RememberFastLevel(temp, branch: 600);

        // At the fast level the body runs 0.65× as long: a slope of 1.06, as a word count follows the state.
        BaselineJudgement judgement = Record(temp, Sequence((1.0, 900), (1.0, 900), (0.65, 600)));

        BaselineRecord recorded = Recorded(temp);
        recorded.BranchSpeed.ShouldBe(600);
        recorded.Find("tsc")!.PerOperation.P10.ShouldBeLessThan(140, "the fast level's floor kept");
        judgement.Remeasurement.ShouldNotBeNull().ShouldContain("Recorded at the machine's fast level");
    }

    [Fact]
    public void SlowerOnTheCoreLoopToo_IsRecordedAtTheFastLevel_WhateverTheBodyDid()
    {
        using var temp = new TempDirectory();
        RememberFastLevel(temp, branch: 600);

        // The core loop 1.3× slower as well: a slow machine mode the recording must not keep.
        BaselineJudgement judgement = Record(temp, Sequence((1.0, 900, 1.3), (1.0, 900, 1.3), (1.0, 600, 1.0)));

        Recorded(temp).BranchSpeed.ShouldBe(600);
        judgement.Remeasurement.ShouldNotBeNull().ShouldContain("Recorded at the machine's fast level");
    }

    [Fact]
    public void SlowerOnlyInTheBranchyState_NeverReachingTheFastLevel_SaysWhatRecordingAgainDoes_NotToWaitForQuiet()
    {
        using var temp = new TempDirectory();
        RememberFastLevel(temp, branch: 600);

        // Every measurement with the branchy reference at 900 ns, the core loop at its fast level.
        BaselineJudgement judgement = Record(temp, Sequence((1.0, 900)));

        Recorded(temp).BranchSpeed.ShouldBe(900);
        judgement.Notices.ShouldContain(static n => n.StartsWith(
            "Recorded while the host ran branchy code 50% slower than its fastest remembered level (the branchy reference, in 7 "
            + "measurements", StringComparison.Ordinal));
        judgement.Notices.ShouldNotContain(static n => n.Contains("machine's references ran", StringComparison.Ordinal));
    }

    [Fact]
    public void SlowerOnTheCoreLoop_NeverReachingTheFastLevel_SaysTheMachinesReferencesRanSlower()
    {
        using var temp = new TempDirectory();
        RememberFastLevel(temp, branch: 600);

        BaselineJudgement judgement = Record(temp, Sequence((1.0, 900, 1.3)));

        judgement.Notices.ShouldContain(static n => n.StartsWith(
            "Recorded while the machine's references ran 50% slower than its fastest remembered level", StringComparison.Ordinal));
    }

    // Four readings of the fast level, so the memory's fastest counts.
    private static void RememberFastLevel(TempDirectory temp, double branch)
    {
        MachineSpeedMemory memory = MachineSpeedMemory.Load(MachineFingerprint.Current.Id, Environment(temp));
        for (int i = 0; i < JudgementPolicy.Default.SpeedMemoryMinimumReadings; i++)
            memory = memory.Remember(BaselineRecord.FromResult(Measured(1.0, branch)));
    }

    private static BaselineJudgement Record(TempDirectory temp, PerfResult first) => BaselineJudge.Judge(
        first, temp.Combine("T.cs"), "T", "M", null, Options(temp) with { UpdateBaselines = true });

    private static BaselineRecord Recorded(TempDirectory temp) => BaselineStore.Read(temp.Combine("T.M.perf.json"))!.Entries.Single().Record;

    private static BaselineStoreOptions Options(TempDirectory temp) => new() { GetEnvironmentVariable = Environment(temp) };

    private static Func<string, string?> Environment(TempDirectory temp) =>
        name => name == MachineSpeedMemory.FolderVariable ? temp.Combine("cache") : null;

    // The measurements in order (each remeasurement the next; the last repeats): scale, branchy reference, core loop factor.
    private static PerfResult Sequence(params (double Scale, double Branch, double Core)[] steps)
    {
        int next = 0;
        PerfResult At(int i) =>
            Measured(steps[i].Scale, steps[i].Branch, steps[i].Core).WithRemeasure(() => At(Math.Min(++next, steps.Length - 1)));
        return At(0);
    }

    private static PerfResult Sequence(params (double Scale, double Branch)[] steps) =>
        Sequence([.. steps.Select(static s => (s.Scale, s.Branch, 1.0))]);

    // One measurement: 200 samples of 1,000 operations over 198-218 ticks per operation times the scale, with the references.
    private static PerfResult Measured(double scale, double branch, double core = 1.0)
    {
        CounterResult tsc = SyntheticResults.Counter(
            "tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 200).Select(i => (ulong)Math.Round(scale * (198_000 + (i * 100)))));
        PerfResult result = SyntheticResults.Result(tsc);
        return new PerfResult([.. result.Counters], result.Options, result.Run with
        {
            BranchSpeedNanoseconds = branch,
            MachineSpeedNanoseconds = Core * core,
            OtherProcessesCores = 0,
        });
    }
}
