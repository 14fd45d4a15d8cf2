using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Metrics;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class BaselineComparerTests
{
    private static BaselineFile FileOf(MachineFingerprint machine, params BaselineCounter[] counters) =>
        new([new BaselineEntry(machine, Record(counters))]);

    private static CounterVerdict CompareOne(BaselineCounter baseline, BaselineCounter current, MachineFingerprint? machine = null) =>
        BaselineComparer.Compare(FileOf(Epyc, baseline), machine ?? Epyc, Record(current)).ShouldHaveSingleItem();

    [Fact]
    public void IdenticalHistograms_Pass()
    {
        CounterVerdict verdict = CompareOne(TaskClock(Noisy(1_000, 30, seed: 1)), TaskClock(Noisy(1_000, 30, seed: 1)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
        verdict.RelativeChange.ShouldBe(0);
        verdict.EffectSize.ShouldBe(0);
        verdict.BaselineMachineId.ShouldBe(Epyc.Id);
    }

    [Fact]
    public void TenPercentSlower_Regresses_OnTheFloor()
    {
        CounterVerdict verdict = CompareOne(TaskClock(Noisy(1_000, 30, seed: 1)), TaskClock(Noisy(1_100, 30, seed: 2)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.IsRegression.ShouldBeTrue();
        verdict.RelativeChange!.Value.ShouldBe(0.10, 0.01);
        verdict.EffectSize!.Value.ShouldBeGreaterThan(2);
        verdict.CohensD!.Value.ShouldBeGreaterThan(2, "the floors, not the noisy upper halves, are compared");
        verdict.Text.ShouldMatch(@"^task-clock P10 \+\d+\.\d% \(\d[\d,]* → 1,\d\d\d[.\d]* ns/op\), z = \d\.\d, Cohen's d = \d+\.\d, detects ≥ \d+(\.\d)?%: regressed$");
    }

    [Fact]
    public void ZeroThresholds_UnchangedCounter_IsNeitherRegressedNorImproved()
    {
        BaselineRecord record = Record(TaskClock(Noisy(1_000, 30, seed: 1)));
        VerdictPolicy policy = VerdictPolicy.Default.WithThresholds(maxChange: 0, confidence: 0.5);

        BaselineComparer.Compare(FileOf(Epyc, record.Counters[0]), Epyc, record, policy).ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Pass);
        BaselineComparer.Compare(FileOf(Epyc, TaskClock(Noisy(1_000, 30, seed: 1))), Epyc, Record(TaskClock(Noisy(1_003, 30, seed: 1))), policy)
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Regressed);
    }

    [Fact]
    public void NoiseWithinThreshold_Passes()
    {
        CounterVerdict verdict = CompareOne(TaskClock(Noisy(1_000, 30, seed: 1)), TaskClock(Noisy(1_000, 30, seed: 2)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
        Math.Abs(verdict.EffectSize!.Value).ShouldBeLessThan(0.2);
    }

    [Fact]
    public void LargeChangeOfAnImpreciseFloor_Passes()
    {
        // +10 % on 20 samples spread over ±30 %: the floor (P25 here: 20 samples cannot bound P10) is known to within a
        // third of its value only, so the change is not 1.645 times its noise. Both gates must open.
        CounterVerdict verdict = CompareOne(TaskClock(Spread(1_000, 20)), TaskClock(Spread(1_100, 20)));

        verdict.Statistic.ShouldBe(BaselineStatistic.P25);
        verdict.RelativeChange!.Value.ShouldBeGreaterThan(0.08);
        verdict.EffectSize!.Value.ShouldBeLessThan(1.645);
        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void SmallChangeOfAPreciseFloor_Passes()
    {
        // Zero-variance task-clock 1,000 → 1,010: exactly known, but 1 % is below the 8 % practical threshold.
        CounterVerdict verdict = CompareOne(TaskClock(Constant(1_000)), TaskClock(Constant(1_010)));

        verdict.RelativeChange!.Value.ShouldBe(0.01, 1e-12);
        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void ZeroVarianceAllocatedBytesPlusOne_RegressesExactly_WithNoEffectSize()
    {
        CounterVerdict verdict = CompareOne(AllocatedBytes(Constant(88)), AllocatedBytes(Constant(89)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.Mode.ShouldBe(VerdictMode.Exact);

        // An exact counter has no effect size: a sentinel d (1 / the resolution floor) said nothing the values do not.
        verdict.EffectSize.ShouldBeNull();
        verdict.Text.ShouldBe("allocated-bytes P50 +1.1% (88 → 89 bytes/op): regressed (exact)");
    }

    [Fact]
    public void ZeroVarianceInstructionsPlusOne_RegressesWithFiniteD()
    {
        CounterVerdict verdict = CompareOne(Instructions(Constant(50)), Instructions(Constant(51)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.EffectSize!.Value.ShouldBeGreaterThan(1.645);
        double.IsFinite(verdict.EffectSize.Value).ShouldBeTrue();
        verdict.RelativeChange!.Value.ShouldBe(0.02, 1e-12);
    }

    [Fact]
    public void AllocationsFromZero_RegressWithoutPercentage()
    {
        CounterVerdict verdict = CompareOne(AllocatedBytes(Constant(0)), AllocatedBytes(Constant(24)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.RelativeChange.ShouldBe(double.PositiveInfinity);
        verdict.Text.ShouldBe("allocated-bytes P50 (0 → 24 bytes/op): regressed (exact)");
    }

    [Fact]
    public void FasterResult_PassesAsImproved()
    {
        CounterVerdict verdict = CompareOne(TaskClock(Noisy(1_000, 30, seed: 1)), TaskClock(Noisy(800, 30, seed: 2)));

        verdict.Status.ShouldBe(CounterVerdictStatus.Improved);
        verdict.IsRegression.ShouldBeFalse();
        verdict.Text.ShouldEndWith(": improved");
    }

    [Fact]
    public void FewerAllocations_PassAsImproved()
    {
        CompareOne(AllocatedBytes(Constant(88)), AllocatedBytes(Constant(0))).Status.ShouldBe(CounterVerdictStatus.Improved);
    }

    [Fact]
    public void NoFile_IsNoBaseline()
    {
        CounterVerdict verdict = BaselineComparer.Compare(null, Epyc, Record(TaskClock(Constant(5)))).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.NoBaseline);
        verdict.Text.ShouldBe("task-clock: no baseline file");
    }

    [Fact]
    public void CounterMissingFromEntry_IsNoBaselineForThisMachine()
    {
        CounterVerdict verdict = BaselineComparer.Compare(FileOf(Epyc, TaskClock(Constant(5))), Epyc, Record(Cycles(Constant(5)))).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.NoBaseline);
        verdict.Text.ShouldBe("cycles: no baseline for this machine (this machine's entry was recorded without it: record it again with PICOLLO_UPDATE_BASELINES=1)");
    }

    [Fact]
    public void PerOperationAgainstPerSampleMeans_IsNotComparable()
    {
        var perSample = TaskClock(Constant(1_000)) with { OperationsPerSample = 64 };

        CounterVerdict verdict = CompareOne(TaskClock(Constant(1_000)), perSample);

        verdict.Status.ShouldBe(CounterVerdictStatus.NotComparable);
        verdict.Text.ShouldStartWith("task-clock: not comparable: operations per sample changed between 1 and more (1 → 64)");
    }

    [Fact]
    public void OverriddenRule_AppliesToThatCounter()
    {
        var policy = new VerdictPolicy(new Dictionary<string, CounterVerdictRule> { ["task-clock"] = CounterVerdictRule.Time with { MinRelativeChange = 0.5 } });

        CounterVerdict verdict = BaselineComparer.Compare(
            FileOf(Epyc, TaskClock(Noisy(1_000, 30, seed: 1))), Epyc, Record(TaskClock(Noisy(1_100, 30, seed: 2))), policy).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void DefaultRules_FollowCounterKinds()
    {
        VerdictPolicy p = VerdictPolicy.Default;

        p.GetRule("allocated-bytes", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Exact);
        p.GetRule("gen0-collections", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Occasional);
        p.GetRule("lock-contentions", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Occasional);
        p.GetRule("instructions", CounterKind.Hardware).ShouldBe(CounterVerdictRule.Instructions);
        p.GetRule("cycles", CounterKind.Hardware).ShouldBe(CounterVerdictRule.Time);
        p.GetRule("task-clock", CounterKind.Software).ShouldBe(CounterVerdictRule.Time);
        p.GetRule("tsc", CounterKind.Tsc).ShouldBe(CounterVerdictRule.Time);
        p.GetRule("branch-misses", CounterKind.Hardware).ShouldBe(CounterVerdictRule.Other);
    }

    [Fact]
    public void ThisMachinesEntry_IsPreferredOverANewerComparableOne()
    {
        MachineFingerprint sameModelNewKernel = Machine(Epyc.CpuModel, kernel: "6.19.0");
        var file = new BaselineFile(
        [
            new BaselineEntry(Epyc, Record(TaskClock(Constant(1_000)))),
            new BaselineEntry(sameModelNewKernel, Record(TaskClock(Constant(2_000))) with { RecordedUtc = Recorded.AddDays(1) }),
        ]);

        BaselineComparer.Compare(file, Epyc, Record(TaskClock(Constant(1_000)))).ShouldHaveSingleItem().BaselineMachineId.ShouldBe(Epyc.Id);
        MachineFingerprint third = Machine(Epyc.CpuModel, kernel: "6.20.0");
        BaselineComparer.Compare(file, third, Record(TaskClock(Constant(1_000)))).ShouldHaveSingleItem().BaselineMachineId.ShouldBe(sameModelNewKernel.Id);
    }

    // count values evenly spread over center ± 30 %.
    private static HdrHistogram Spread(double center, int count)
    {
        HdrHistogram h = HdrHistogram.Factory.Create();
        for (int i = 0; i < count; i++)
            h.Record((ulong)Math.Round(center * (0.7 + (0.6 * i / (count - 1)))));
        return h;
    }
}
