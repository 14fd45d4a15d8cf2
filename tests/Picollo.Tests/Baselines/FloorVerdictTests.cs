using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Tests.Assertions;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Time verdicts judge the floor of the distribution (issue 10): the shapes of a noisy machine, as seeded synthetic runs
/// of 1,000 samples of 1,000 operations at 200 ticks per operation with a 1 % spread, where a disturbance only ever
/// slows samples down.
/// </summary>
public sealed class FloorVerdictTests
{
    [Fact]
    public void CleanShift_Regresses()
    {
        CounterVerdict verdict = Judge(FloorRun(seed: 1), FloorRun(seed: 2, scale: 1.15));

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.Statistic.ShouldBe(BaselineStatistic.P10);
        verdict.RelativeChange!.Value.ShouldBe(0.15, 0.01);
        verdict.DetectableChange!.Value.ShouldBe(0.072, 0.002, "1,000 samples: the drift decides what a baseline can detect");
    }

    [Fact]
    public void DisturbedUpperHalf_WithoutAShift_Passes()
    {
        // Half the samples 1.2-3× slower (gen0 collections, a busy sibling): the median rises far beyond 8 %, the floor does not.
        double[] disturbed = FloorRun(seed: 2, disturbedShare: 0.5);
        disturbed.Order().ElementAt(500).ShouldBeGreaterThan(1.2 * 200);

        Judge(FloorRun(seed: 1), disturbed).Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void DisturbedBaseline_StillSeesAFifteenPercentRegression_AndNoFalseOne()
    {
        double[] baseline = FloorRun(seed: 1, disturbedShare: 0.5);

        Judge(baseline, FloorRun(seed: 2, scale: 1.15)).Status.ShouldBe(CounterVerdictStatus.Regressed);
        Judge(baseline, FloorRun(seed: 3)).Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void SlowModeForPartOfTheRun_Passes_ButAWholeSlowRun_RegressesForTheConfirmationToJudge()
    {
        // A switch to a 1.5× slow mode 40 % into the run: the floor is the fast part's. A whole run in that mode moves every
        // quantile: no statistic of that run can tell it from a regression; the second measurement decides (BaselineJudge).
        Judge(FloorRun(seed: 1), FloorRun(seed: 2, slowTail: 0.6)).Status.ShouldBe(CounterVerdictStatus.Pass);
        Judge(FloorRun(seed: 1), FloorRun(seed: 2, scale: 1.5)).Status.ShouldBe(CounterVerdictStatus.Regressed);
    }

    [Fact]
    public void FewSamples_FallBackToQuantilesTheyCanBound_ThenToInconclusive()
    {
        Judge(FloorRun(seed: 1, samples: 30), FloorRun(seed: 2, samples: 30, scale: 1.3)).Statistic.ShouldBe(BaselineStatistic.P25);
        Judge(FloorRun(seed: 1, samples: 10), FloorRun(seed: 2, samples: 10, scale: 1.3)).Statistic.ShouldBe(BaselineStatistic.P50);

        CounterVerdict verdict = Judge(FloorRun(seed: 1, samples: 5), FloorRun(seed: 2, samples: 5, scale: 1.3));
        verdict.Status.ShouldBe(CounterVerdictStatus.Inconclusive);
        verdict.Text.ShouldBe("tsc: inconclusive: 5 samples are too few to bound even the median (8 are needed); give the measurement a longer TimeBudget or fewer operations per sample");
    }

    [Fact]
    public void RecordedDrift_WidensTheNoise_AndWhatTheBaselineCanDetect()
    {
        BaselineCounter steady = TscCounter(FloorRun(seed: 1)), drifting = steady with { Recording = new RecordingQuality(5, 0.06, null) };
        BaselineCounter current = TscCounter(FloorRun(seed: 2, scale: 1.10));

        Compare(steady, current).Status.ShouldBe(CounterVerdictStatus.Regressed);
        CounterVerdict verdict = Compare(drifting, current);
        verdict.Status.ShouldBe(CounterVerdictStatus.Pass, "10 % is within 1.645 times a 6 % drift");
        verdict.DetectableChange!.Value.ShouldBeGreaterThan(0.2);
    }

    [Fact]
    public void Collections_AreJudgedPerOperation_NotByAMedianThatFlipsWithWhichSamplesAGcLandedIn()
    {
        // 49 % and then 51 % of 1,000 samples hold a gen0 collection: the median flips from 0 to 1, the collections per
        // operation move by 4 %.
        static BaselineCounter Gen0(int samplesWithOne, int operations = 4_000) => BaselineCounter.FromResult(SyntheticResults.Counter(
            "gen0-collections", "collections", CounterKind.Runtime, operations, Enumerable.Range(0, 1_000).Select(i => i < samplesWithOne ? 1UL : 0UL)));

        CounterVerdict verdict = Compare(Gen0(490), Gen0(510));

        verdict.Statistic.ShouldBe(BaselineStatistic.Mean);
        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
        verdict.Text.ShouldStartWith("gen0-collections Mean +4.1% (1.225E-4 → 1.275E-4 collections/op)");
        Compare(Gen0(490, 100), Gen0(900, 100)).Status.ShouldBe(CounterVerdictStatus.Regressed, "a body that now collects once in 110 operations, not 200");
        Compare(Gen0(490), Gen0(900)).Status.ShouldBe(CounterVerdictStatus.Pass, "once in 4,400 operations instead of 8,200: under one per 1,000 operations, the collector's budget more than the code");
    }

    [Fact]
    public void RareEvents_FromNoneToOnePerCollection_Pass_ButOnePerHundredOperationsRegresses()
    {
        // Seen in bench verdicts: an unchanged allocating body page-faulted 0 times in 3 million operations in the run the
        // baseline kept, and once per gen0 collection (1 in 6,600 operations) later, when the collector handed out memory
        // it had given back to the system. 0 → anything is an infinite ratio, and hundreds of events are no accident.
        static BaselineCounter Faults(int samplesWithOne, int operations = 3_000) => BaselineCounter.FromResult(SyntheticResults.Counter(
            "page-faults", "events", CounterKind.Software, operations, Enumerable.Range(0, 1_000).Select(i => i < samplesWithOne ? 1UL : 0UL)));

        CounterVerdict onePerCollection = Compare(Faults(0), Faults(455));
        onePerCollection.Status.ShouldBe(CounterVerdictStatus.Pass);
        onePerCollection.EffectSize!.Value.ShouldBe(4.8, 0.1, "certain, but not material");

        Compare(Faults(0, 100), Faults(455, 100)).Status.ShouldBe(CounterVerdictStatus.Regressed, "a fault every 220 operations is the code's");
        Compare(Faults(0, 10_000), Faults(2, 10_000)).EffectSize!.Value.ShouldBe(1.0, 0.1, "two events against none is chance");

        var strict = new VerdictPolicy(new Dictionary<string, CounterVerdictRule>
        {
            ["page-faults"] = CounterVerdictRule.Occasional with { MinAbsoluteChange = 0 },
        });
        BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Record(Faults(0)))]), Epyc, Record(Faults(455)), strict)
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Regressed, "a rule without the floor judges every event");
    }

    [Fact]
    public void MachineSlowerBeyondTheGate_AllowsThatMuch_AndFailsBeyondIt_ButNotAllocations()
    {
        // The reference loop took 400 ns per 1,000 steps at recording and 520 now: a host in a slow mode, which slows the
        // floor of every run by as much as a real regression would. Unchanged code may be that much slower, no more.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1)), AllocatedBytes(Constant(88))) with { MachineSpeed = 400 };
        BaselineRecord now = Record(TscCounter(FloorRun(seed: 2, scale: 1.3)), AllocatedBytes(Constant(96))) with { MachineSpeed = 520 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(file, Epyc, now);

        CounterVerdict tsc = verdicts.Single(v => v.Counter == "tsc");
        tsc.Status.ShouldBe(CounterVerdictStatus.Pass, "the slow host explains +30 %");
        tsc.ConditionsChanged.ShouldBeTrue("measured again: the host may be back");
        tsc.Text.ShouldEndWith("allowing +30% (the machine ran 30% slower than at recording (a reference loop 400 → 520 ns per 1,000 steps)): pass");
        tsc.DetectableChange!.Value.ShouldBeGreaterThan(0.3, "what it detects includes the allowance");
        verdicts.Single(v => v.Counter == "allocated-bytes").Status.ShouldBe(CounterVerdictStatus.Regressed);

        CounterVerdict doubled = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 2.0))) with { MachineSpeed = 520 }).ShouldHaveSingleItem();
        doubled.Status.ShouldBe(CounterVerdictStatus.Regressed, "2× is beyond what a 30 % slower host explains");
        doubled.EffectSize!.Value.ShouldBeGreaterThan(5);

        BaselineComparer.Compare(file, Epyc, now with { MachineSpeed = 410 })
            .Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Regressed, "2.5 % apart: the reference loop's own jitter");
        BaselineComparer.Compare(file, Epyc, now with { MachineSpeed = 450 })
            .Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Regressed, "12.5 % apart: still within the 15 % gate");
    }

    [Fact]
    public void MachineFasterBeyondTheGate_JudgesAsRecorded_AndSaysWhatMayHide()
    {
        // Recorded in a slow mode (520 ns), judged in a fast one (400): unchanged code runs faster, which passes; a rise
        // beyond the recorded floor still fails; the text says how large a regression the faster host could hide.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { MachineSpeed = 520 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        CounterVerdict unchanged = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 0.77))) with { MachineSpeed = 400 }).ShouldHaveSingleItem();
        unchanged.Status.ShouldBe(CounterVerdictStatus.Pass);
        unchanged.Text.ShouldContain("the machine ran 30% faster than at recording (a reference loop 520 → 400 ns per 1,000 steps), so a regression up to +30% may hide in it");
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.2))) with { MachineSpeed = 400 }).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed, "slower than the recording on a faster host");
    }

    [Fact]
    public void MachineSlowerWithinTheGate_WidensTheNoise_SoAnUnchangedBodySlowedWithItPasses()
    {
        // Seen in bench verdicts: the reference loop read 1,206 ns per 1,000 steps against 1,075 at recording (12 % slower,
        // inside the 15 % gate), and an unchanged chain's floor rose 9.8 % with it, in both measurements.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { MachineSpeed = 1_075 };
        BaselineRecord slowed = Record(TscCounter(FloorRun(seed: 2, scale: 1.098))) with { MachineSpeed = 1_206 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        CounterVerdict verdict = BaselineComparer.Compare(file, Epyc, slowed).ShouldHaveSingleItem();
        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
        verdict.EffectSize!.Value.ShouldBeLessThan(1.645);

        BaselineComparer.Compare(file, Epyc, slowed with { MachineSpeed = 1_080 }).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed, "the same rise at the recorded speed is the code's");
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.3))) with { MachineSpeed = 1_206 }).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed, "+30 % stands out of a 12 % speed change");
    }

    [Fact]
    public void AllocatingBodyAtAnotherAllocationSpeed_IsScaledByTheReference_WithTheScalingsUncertaintyInSigma()
    {
        // bench episodes: an allocating body ran 1.70× slower for seconds at a time, its allocation reference 1.82×, the core
        // loop 1.00×. The baseline was taken in such an episode: a +30 % body in a fast moment shows a floor 24 % lower.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1, scale: 1.7)), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_075, AllocationSpeed = 18.2 };
        BaselineRecord fast = Record(TscCounter(FloorRun(seed: 2, scale: 1.3)), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_080, AllocationSpeed = 10.0 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(file, Epyc, fast);

        CounterVerdict tsc = verdicts.Single(v => v.Counter == "tsc");
        tsc.Status.ShouldBe(CounterVerdictStatus.Regressed, "scaled by 1.82, the floor rose 39 %");
        tsc.RelativeChange!.Value.ShouldBe(1.3 / 1.7 - 1, 0.01, "the change shown is the raw one");
        tsc.Text.ShouldContain("scaled by the allocation reference (18.2 → 10 ns per allocation, 82% faster)");
        tsc.EffectSize!.Value.ShouldBeLessThan(3, "a quarter of the correction (0.25 · ln 1.82 = 0.15) is uncertainty");
        tsc.Allowance!.ShiftSigma.ShouldBe(0.25 * Math.Log(1.82), 0.001);
        verdicts.Single(v => v.Counter == "allocated-bytes").Status.ShouldBe(CounterVerdictStatus.Pass, "bytes do not depend on speed");

        // The same body unchanged in the fast episode: 1 / 1.7 raw, +7 % once scaled by 1.82 — within the threshold.
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 3, scale: 1.0)), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_080, AllocationSpeed = 10.0 })
            .Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Pass);

        // A body that follows its reference only three quarters of the way (slope 0.75): 1.82^0.75 = 1.57 slower in the
        // episode. Scaled, it looks 16 % faster than it is; the scaling's uncertainty keeps that from failing either way.
        BaselineRecord slowFollower = Record(TscCounter(FloorRun(seed: 4, scale: Math.Pow(1.82, 0.75))), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_075, AllocationSpeed = 18.2 };
        BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, slowFollower)]), Epyc, Record(TscCounter(FloorRun(seed: 5)), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_080, AllocationSpeed = 10.0 })
            .Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Pass, "z stays under 1.645 for a slope of 0.75");

        // Without the allocation reference on either side (a baseline written before it, a body that does not allocate), the
        // core loop alone decides, and the slow baseline makes a +30 % body look like an improvement.
        BaselineComparer.Compare(file, Epyc, fast with { AllocationSpeed = null }).Single(v => v.Counter == "tsc").Status
            .ShouldBe(CounterVerdictStatus.Improved);
    }

    [Fact]
    public void AllocationReferenceSlowerNow_BoundsTheVerdict_AndARealRiseStillFails()
    {
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { MachineSpeed = 1_075, AllocationSpeed = 10.0 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        // Allocation 12 % slower, the body's floor 9.8 % higher with it: inside the bound.
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.098))) with { MachineSpeed = 1_075, AllocationSpeed = 11.2 })
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Pass);
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.098))) with { MachineSpeed = 1_075, AllocationSpeed = 10.1 })
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Regressed, "the same rise at the recorded allocation speed is the code's");
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.3))) with { MachineSpeed = 1_075, AllocationSpeed = 11.2 })
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Regressed, "+30 % stands out of a 12 % allocation-speed change");
    }

    [Fact]
    public void AnAllocationReferenceSlowOnItsOwn_DoesNotCallUnchangedCodeImproved_AndTwiceTheWorkStillFails()
    {
        // bench verdicts (spinner): the reference read 19-20 ns per allocation against 12.3 at recording while the body ran at
        // its recorded speed. Divided by the ratio, unchanged code read z = -3.9: "improved", a received file and a notice.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1)), AllocatedBytes(Constant(320))) with { MachineSpeed = 1_150, AllocationSpeed = 12.3 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);
        BaselineRecord Episode(int seed, double scale) => Record(TscCounter(FloorRun(seed, scale: scale)), AllocatedBytes(Constant(320))) with { MachineSpeed = 1_150, AllocationSpeed = 19.8 };

        CounterVerdict unchanged = BaselineComparer.Compare(file, Epyc, Episode(2, 1.0)).Single(v => v.Counter == "tsc");
        unchanged.Status.ShouldBe(CounterVerdictStatus.Pass);
        unchanged.Text.ShouldContain("allowing +61% (the allocation reference ran 61% slower than at recording (12.3 → 19.8 ns per allocation), up to +61%)");
        BaselineComparer.Compare(file, Epyc, Episode(3, 2.0)).Single(v => v.Counter == "tsc").Status
            .ShouldBe(CounterVerdictStatus.Regressed, "twice the work is beyond a body following the reference all the way");

        // A body that does follow the reference (slope 0.9, as the development VM's episodes measured) passes unchanged and
        // fails at +30 %.
        double followed = Math.Pow(19.8 / 12.3, 0.9);
        BaselineComparer.Compare(file, Epyc, Episode(4, followed)).Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Pass);
        BaselineComparer.Compare(file, Epyc, Episode(5, 1.3 * followed)).Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Regressed);
    }

    [Fact]
    public void TheConditionsTogether_AllowAtMostTwoAndAHalfTimes_UnlessTheRecordedSpreadIsWider()
    {
        // The recorded spread, the host's slow branchy state and a busy core multiplied to 3×, and a 3× body passed.
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        BaselineCounter tsc = TscCounter(FloorRun(seed: 1));
        BaselineRecord Recorded(double spread) => Record(tsc with { Recording = new RecordingQuality(2, 0.003, null) { Processes = 4, Spread = spread } }) with { MachineSpeed = 1_100, BranchSpeed = 414 };
        BaselineRecord Slow(int seed, double scale) => Record(TscCounter(FloorRun(seed, scale: scale))) with { MachineSpeed = 1_100, BranchSpeed = 660, OtherProcessesCores = others };

        CounterVerdict tripled = BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Recorded(1.37))]), Epyc, Slow(2, 3.0)).ShouldHaveSingleItem();
        tripled.Status.ShouldBe(CounterVerdictStatus.Regressed);
        tripled.Allowance!.High.ShouldBe(Math.Log(JudgementPolicy.Default.MostAllowed), 1e-9);
        tripled.Text.ShouldContain("; at most +150% in all): regressed");
        BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Recorded(1.37))]), Epyc, Slow(3, 2.4)).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Pass, "inside the cap");

        // A body whose own levels lay 2.8× apart on this machine is allowed its spread: a measured fact, said in its line.
        CounterVerdict wide = BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Recorded(2.8))]), Epyc, Slow(4, 2.7)).ShouldHaveSingleItem();
        wide.Status.ShouldBe(CounterVerdictStatus.Pass);
        wide.Allowance!.High.ShouldBe(Math.Log(2.8), 1e-9);
    }

    [Fact]
    public void TheBranchyBound_CountsOnlyWhatTheBranchyReferenceSlowedBeyondTheCoreLoop()
    {
        // The core loop +14 % (allowed in σ) and the branchy reference +59 %, of which +40 % beyond the core. Counting the core's
        // part again at 1.5 times allowed +90 %, and a 2× chain (2 × 1.14) passed (as in bench verdicts run 4, spinner / short).
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { MachineSpeed = 1_100, BranchSpeed = 414 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);
        BaselineRecord Now(int seed, double scale) =>
            Record(TscCounter(FloorRun(seed, scale: scale))) with { MachineSpeed = 1_250, BranchSpeed = 660 };

        CounterVerdict doubled = BaselineComparer.Compare(file, Epyc, Now(2, 2 * 1_250 / 1_100.0)).ShouldHaveSingleItem();
        doubled.Status.ShouldBe(CounterVerdictStatus.Regressed, "a 2× chain that followed the core loop");
        doubled.Allowance!.High.ShouldBe(1.5 * (Math.Log(660 / 414.0) - Math.Log(1_250 / 1_100.0) - Math.Log(1.04)), 1e-9);
        doubled.Text.ShouldContain(
            "branchy code ran 59% slower than at recording (a reference word count 414 → 660 ns per 1,000 characters, 40% more than "
            + "the reference loop), up to +57%");

        // A word count following the host's branchy state at 1.27 beyond the core loop, unchanged: still a pass.
        double wordCount = 1_250 / 1_100.0 * Math.Pow(660 / 414.0 / (1_250 / 1_100.0), 1.27);
        BaselineComparer.Compare(file, Epyc, Now(3, wordCount)).ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Pass);
    }

    [Fact]
    public void TheHostSlowingBranchyCode_AllowsOneAndAHalfTimesTheBranchyReferencesSlowdown_BeyondItsJitter()
    {
        // The development VM's slow host state: a word count about 1.8× slower, a branchy reference about 1.6×, the core loop steady.
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { MachineSpeed = 1_100, BranchSpeed = 414 };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        CounterVerdict slowState = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.79))) with { MachineSpeed = 1_100, BranchSpeed = 660 }).ShouldHaveSingleItem();
        slowState.Status.ShouldBe(CounterVerdictStatus.Pass, "unchanged code in the host's slow state");
        slowState.ConditionsChanged.ShouldBeTrue("measured again: the host may be back");
        slowState.Text.ShouldContain("branchy code ran 59% slower than at recording (a reference word count 414 → 660 ns per 1,000 characters), up to +");

        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 3, scale: 3 * 1.79))) with { MachineSpeed = 1_100, BranchSpeed = 660 }).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed, "3× in the slow state is beyond any bound");

        // Within its jitter the reference allows nothing: +10 % at a reference 3 % slower still fails.
        CounterVerdict jitter = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 4, scale: 1.12))) with { MachineSpeed = 1_100, BranchSpeed = 426 }).ShouldHaveSingleItem();
        jitter.Status.ShouldBe(CounterVerdictStatus.Regressed);
        jitter.Allowance.ShouldBeNull();

        // Recorded in the slow state, judged in the fast one: judged as recorded, and the line says what may hide.
        var slowBaseline = new BaselineFile([new BaselineEntry(Epyc, recorded with { BranchSpeed = 660 })]);
        BaselineComparer.Compare(slowBaseline, Epyc, Record(TscCounter(FloorRun(seed: 5))) with { MachineSpeed = 1_100, BranchSpeed = 414 }).ShouldHaveSingleItem()
            .Text.ShouldContain("branchy code ran 59% faster than at recording (a reference word count 660 → 414 ns per 1,000 characters), so a regression up to +59% may hide in it");
    }

    [Fact]
    public void AMeasurementBesideBusyProcesses_IsJudgedAgainstABound_SoThreeTimesSlowerFails()
    {
        // A 3× slower body passed 4 of 5 times while another process kept a core busy, because time was left unjudged. Now
        // other processes' load bounds what unchanged code may show: 1 + 0.15 × their share of the other cores.
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1)), AllocatedBytes(Constant(0)));
        BaselineRecord busy = Record(TscCounter(FloorRun(seed: 2, scale: 1.15)), AllocatedBytes(Constant(0))) with { OtherProcessesCores = others };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(file, Epyc, busy);

        CounterVerdict tsc = verdicts.Single(v => v.Counter == "tsc");
        tsc.Status.ShouldBe(CounterVerdictStatus.Pass, "+15 % is what a fully busy machine allows");
        tsc.ConditionsChanged.ShouldBeTrue("measured again, like a host at another speed");
        tsc.Text.ShouldContain($"allowing +15% (other processes used {others:0.00} of {Environment.ProcessorCount} cores, up to +15%)");
        verdicts.Single(v => v.Counter == "allocated-bytes").Status.ShouldBe(CounterVerdictStatus.Pass);

        CounterVerdict tripled = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 3, scale: 3.0))) with { OtherProcessesCores = others }).ShouldHaveSingleItem();
        tripled.Status.ShouldBe(CounterVerdictStatus.Regressed, "3× is beyond any busy machine's bound");
        tripled.Text.ShouldContain("allowing +15%");
        BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 4, scale: 1.3))) with { OtherProcessesCores = others }).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed, "+30 % stands out of a busy machine's +15 %");
        BaselineComparer.Compare(file, Epyc, busy with { OtherProcessesCores = 0.1 }).Single(v => v.Counter == "tsc").Status
            .ShouldBe(CounterVerdictStatus.Regressed, "a quiet machine judges the same rise");
        TimeAllowance.BusyBound(others * 1.5).ShouldBe(1.225, 0.001, "more than the machine has: the measured thread is preempted too");
    }

    [Fact]
    public void ABaselineRecordedBesideBusyProcesses_IsAllowedWhatTheirEffectVaries_NotTheWholeEffectAgain()
    {
        // Bench verdicts' other-process cell records beside a spinning process and judges beside it: the recorded floor holds
        // the neighbour's effect, and the full +15 % on top of it, with the threshold, passed +25 … +28 % regressions there (with the +4 % level).
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1))) with { OtherProcessesCores = others };
        var file = new BaselineFile([new BaselineEntry(Epyc, recorded)]);

        CounterVerdict slower = BaselineComparer.Compare(file, Epyc, Record(TscCounter(FloorRun(seed: 2, scale: 1.05))) with { OtherProcessesCores = others })
            .ShouldHaveSingleItem();
        slower.Status.ShouldBe(CounterVerdictStatus.Pass, "+5 % is within what the neighbour's effect varies");
        slower.Text.ShouldContain($"allowing +6% (other processes used {others:0.00} of {Environment.ProcessorCount} cores, as beside the recording ({others:0.00}), up to +6%)");

        // +20 %: beyond +6 % and the threshold; inside a quiet recording's +15 % and the threshold, so the old rule passed it.
        BaselineRecord twentyPercent = Record(TscCounter(FloorRun(seed: 3, scale: 1.2))) with { OtherProcessesCores = others };
        CounterVerdict regressed = BaselineComparer.Compare(file, Epyc, twentyPercent).ShouldHaveSingleItem();
        regressed.Status.ShouldBe(CounterVerdictStatus.Regressed, "+20 % is beyond +6 % and the threshold");
        CounterVerdict againstQuiet = BaselineComparer.Compare(
            new BaselineFile([new BaselineEntry(Epyc, recorded with { OtherProcessesCores = double.NaN })]), Epyc, twentyPercent).ShouldHaveSingleItem();
        againstQuiet.Text.ShouldContain("up to +15%");
        againstQuiet.Status.ShouldBe(CounterVerdictStatus.Pass, "a quiet recording allows the neighbour's whole effect");

        // Busier now than at recording: the load beyond the recording's, when that is more than the variation.
        TimeAllowance.BusyBoundAsRecorded(others * 0.8, others * 1.5).ShouldBe(1.225 / 1.12, 0.001);
        TimeAllowance.BusyBoundAsRecorded(others * 1.5, others * 0.8).ShouldBe(1.048, 0.001, "less busy than at recording: the variation still");
    }

    [Fact]
    public void PageFaultsOfAnAllocatingBody_AreNotCompared_ButThoseOfOneThatDoesNotAllocateAre()
    {
        // Seen in the NUnit sample: an unchanged 3 KB-per-operation body page-faulted 0 times per operation in the baseline's
        // run and 1.6 per 1,000 in the next (the collector re-committing memory), twice in a row.
        static BaselineCounter Faults(int samplesWithOne) => BaselineCounter.FromResult(SyntheticResults.Counter(
            "page-faults", "events", CounterKind.Software, 3_000, Enumerable.Range(0, 1_000).Select(i => i < samplesWithOne ? 1UL : 0UL)));
        var strict = new VerdictPolicy(new Dictionary<string, CounterVerdictRule> { ["page-faults"] = CounterVerdictRule.Occasional with { MinAbsoluteChange = 0 } });
        BaselineRecord before = Record(Faults(0), AllocatedBytes(Constant(3_000)));
        BaselineRecord after = Record(Faults(455), AllocatedBytes(Constant(3_000)));

        CounterVerdict faults = BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, before)]), Epyc, after, strict).Single(v => v.Counter == "page-faults");

        faults.Status.ShouldBe(CounterVerdictStatus.Pass);
        faults.Text.ShouldBe("page-faults: not compared: the body allocates, and the collector's page faults follow its heap, not the code (allocated-bytes is compared exactly)");
        BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Record(Faults(0)))]), Epyc, Record(Faults(455)), strict)
            .ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Regressed, "a body that allocates nothing has only its own page faults");
    }

    [Fact]
    public void ASubTickFloor_ThatRisesFromZero_IsNotARegression()
    {
        // Seen in a user's test of a body of a few ticks: overhead subtraction left its floor at 0 in the baseline and at
        // 0.94 ticks per operation the next time ("+∞ %"), twice in a row.
        CounterVerdict verdict = Judge(FloorRun(seed: 1, scale: 0.0001), FloorRun(seed: 2, scale: 0.0047));

        verdict.Status.ShouldBe(CounterVerdictStatus.Pass);
        Judge(FloorRun(seed: 1, scale: 0.0037), FloorRun(seed: 2, scale: 0.0044)).Status.ShouldBe(CounterVerdictStatus.Pass, "7.4 → 8.8 ticks: where the JIT placed the code");
        Judge(FloorRun(seed: 1, scale: 0.01), FloorRun(seed: 2, scale: 0.03)).Status.ShouldBe(CounterVerdictStatus.Regressed, "a rise of two ticks or more per operation still counts");
    }

    private static CounterVerdict Judge(double[] baseline, double[] current) => Compare(TscCounter(baseline), TscCounter(current));

    private static CounterVerdict Compare(BaselineCounter baseline, BaselineCounter current) =>
        BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, Record(baseline))]), Epyc, Record(current)).ShouldHaveSingleItem();
}
