using Picollo.Cli.Ab;
using Picollo.Counters;
using Picollo.Measurement.Engine;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// picollo ab's verdicts from process pairs (issue 26, docs/VERDICTS.md "Base against head"): each pair's ratio one value,
/// Student's t over the pairs, the threshold rule, exact counters by their means. Records built as workers write them.
/// </summary>
public sealed class AbStatisticsTests
{
    private static readonly AbOptions Options = new() { Threshold = 0.03, Confidence = 0.99, MinPairs = 3, MaxPairs = 10 };

    // The run's interval (99 %) claims a change; the equivalence interval (90 %, two one-sided tests) claims "unchanged".
    [Theory]
    [InlineData(0.99, 1.01, 0.995, 1.005, false, "Unchanged")]
    [InlineData(0.965, 1.025, 0.985, 1.012, false, "Unchanged")] // a 99 % interval past −3 %: equivalence needs only 90 %
    [InlineData(1.04, 1.08, 1.045, 1.075, false, "Regressed")]
    [InlineData(0.90, 0.95, 0.91, 0.94, false, "Improved")]
    [InlineData(1.01, 1.05, 1.015, 1.045, false, "Inconclusive")]
    [InlineData(1.01, 1.05, 1.015, 1.045, true, "Regressed")] // never "unchanged" for a change the interval does not exclude
    [InlineData(0.95, 0.99, 0.955, 0.985, true, "Improved")]
    [InlineData(0.97, 1.05, 0.975, 1.045, false, "Inconclusive")]
    [InlineData(0.97, 1.05, 0.975, 1.045, true, "Unchanged")] // at the cap: the run's interval inside ±6 %, within ±5 %
    [InlineData(0.93, 1.08, 0.94, 1.07, true, "Inconclusive")] // at the cap, a bound past ±6 % proves nothing worth saying
    [InlineData(0.991, 1.046, 1.003, 1.033, true, "Unchanged")] // +3.6 % of work in bench ab: within ±4.6 % (99 %), not ±3.3 %
    [InlineData(0.936, 1.05, 0.98, 1.03, true, "Inconclusive")] // at the cap, a 90 % interval that reaches +3 % and a 99 % one past −6 %
    public void Decide_FollowsTheThresholdRule(double low, double high, double equivalenceLow, double equivalenceHigh, bool final, string expected)
    {
        var time = new AbTimeEstimate("tsc", [1, 1, 1], Math.Sqrt(low * high), low, high, 0.99, 1)
        {
            EquivalenceLow = equivalenceLow,
            EquivalenceHigh = equivalenceHigh,
        };

        AbStatistics.Decide(time, Options, final).ToString().ShouldBe(expected);
    }

    [Fact]
    public void Judge_TheEquivalenceInterval_IsTheNinetyPercentStudentInterval_AndItsBoundIsWhatUnchangedProved()
    {
        // Three pairs 1 % apart around no change: the 99 % interval (t = 9.925 at 2 degrees of freedom) reaches past ±3 %;
        // the 90 % one (t = 2.920) lies inside ±2 %.
        AbPairOutcome[] pairs = [Pair(0.99, 0), Pair(1.00, 0), Pair(1.01, 0)];

        AbTimeEstimate t = AbStatistics.Judge(pairs, Options, final: false).ShouldHaveSingleItem().Time.ShouldNotBeNull();

        (t.High - 1).ShouldBeGreaterThan(0.03);
        (t.EquivalenceHigh - 1).ShouldBeInRange(0.015, 0.02);
        (1 - t.EquivalenceLow).ShouldBeInRange(0.015, 0.02);
        t.EquivalenceBound.ShouldBe(Math.Max(t.EquivalenceHigh - 1, 1 - t.EquivalenceLow));
        AbStatistics.Decide(t, Options, final: false).ShouldBe(AbVerdict.Unchanged);
    }

    [Fact]
    public void Decide_BeforeTheLeastPairs_WantsMore()
    {
        var time = new AbTimeEstimate("tsc", [1.5, 1.5], 1.5, 1.4, 1.6, 0.99, 10);

        AbStatistics.Decide(time, Options, final: false).ShouldBe(AbVerdict.Inconclusive);
        AbStatistics.Decide(time, Options, final: true).ShouldBe(AbVerdict.Regressed);
    }

    [Theory]
    [InlineData(0.995, 1, 63.657)]
    [InlineData(0.995, 2, 9.925)]
    [InlineData(0.995, 4, 4.604)]
    [InlineData(0.995, 9, 3.250)]
    [InlineData(0.975, 5, 2.571)]
    [InlineData(0.975, 30, 2.042)]
    public void StudentT_MatchesTheTables(double p, int df, double expected) =>
        StudentT.Quantile(p, df).ShouldBe(expected, expected * 0.012);

    [Fact]
    public void Judge_PoolsOneRatioPerPair_AndItsIntervalComesFromThePairs()
    {
        // Three pairs whose head is 10 %, 10.5 % and 9.5 % slower on every sample: three values, mean 10 %.
        AbPairOutcome[] pairs = [Pair(1.10, 0), Pair(1.105, 0), Pair(1.095, 0)];

        AbMeasurement m = AbStatistics.Judge(pairs, Options, final: false).ShouldHaveSingleItem();

        m.Key.ShouldBe("BodiesPerf.Chain#0");
        AbTimeEstimate time = m.Time.ShouldNotBeNull();
        time.Counter.ShouldBe(CounterNames.Tsc);
        time.Pairs.ShouldBe(3);
        time.PairRatios.ShouldBe([1.10, 1.105, 1.095], tolerance: 0.002);
        time.Ratio.ShouldBe(Math.Exp((Math.Log(1.10) + Math.Log(1.105) + Math.Log(1.095)) / 3), 0.002);

        // t(0.995, 2) = 9.925 over the pairs' standard deviation: wide, as three values allow.
        double sd = StandardDeviation([Math.Log(1.10), Math.Log(1.105), Math.Log(1.095)]);
        time.High.ShouldBe(Math.Exp(Math.Log(time.Ratio) + (9.925 * sd / Math.Sqrt(3))), 0.003);
        time.Low.ShouldBeGreaterThan(1.03);
        m.Verdict.ShouldBe(AbVerdict.Regressed, "the interval lies wholly above +3 %");

        // Spread pairs (+10, +12, +8 %) leave three values too few: the same mean, an interval reaching below +3 %.
        AbStatistics.Judge([Pair(1.10, 0), Pair(1.12, 0), Pair(1.08, 0)], Options, final: false).ShouldHaveSingleItem().Verdict.ShouldBe(AbVerdict.Inconclusive);
    }

    [Fact]
    public void Judge_AnAllocationMore_IsAnExactRegression_WhateverTheTime()
    {
        AbPairOutcome[] pairs = [Pair(1.0, 24), Pair(1.0, 24), Pair(1.0, 24)];

        AbMeasurement m = AbStatistics.Judge(pairs, Options, final: false).ShouldHaveSingleItem();

        AbExactCounter bytes = m.Exact.ShouldHaveSingleItem();
        bytes.Name.ShouldBe(CounterNames.AllocatedBytes);
        (bytes.Base, bytes.Head).ShouldBe((0d, 24d));
        bytes.Verdict.ShouldBe(AbVerdict.Regressed);
        m.Time!.Ratio.ShouldBe(1.0, 0.001);
        m.Verdict.ShouldBe(AbVerdict.Regressed);
    }

    [Fact]
    public void Judge_AKeyOnlyTheHeadMeasured_IsNew()
    {
        AbPairOutcome pair = Pair(1.0, 0) with { Measurements = [Record("head", "BodiesPerf.Chain#1", 1.0, 0, paired: false)] };

        AbStatistics.Judge([pair], Options, final: true).ShouldHaveSingleItem().Verdict.ShouldBe(AbVerdict.New);
    }

    [Fact]
    public void Judge_UnpairedRecords_GiveNoTime()
    {
        AbPairOutcome pair = new([Record("base", "BodiesPerf.Chain#0", 1.0, 0, paired: false), Record("head", "BodiesPerf.Chain#0", 1.0, 0, paired: false)], [], null);

        AbMeasurement m = AbStatistics.Judge([pair], Options, final: true).ShouldHaveSingleItem();

        m.Time.ShouldBeNull("samples not taken in lock-step have no pairs to compare");
        m.Verdict.ShouldBe(AbVerdict.NotJudged);
    }

    [Fact]
    public void Judge_APairWhoseSideRanCodeNotFinal_IsSetAside_ItsTierAndItsAllocationsWithIt()
    {
        // The base's tier-0 code: 3.5× slower and allocating (no escape analysis), in pair 2 of 4. Counted, its ratio of
        // 1.3 / 3.5 would widen the interval past any verdict, and the head's 0 bytes would read as an improvement.
        const string Note = "Warmup stopped at 1,500 ms with the body's code still tier-0.";
        PairedRecord tier0 = Record("base", "BodiesPerf.Chain#0", 3.5, 24, paired: true) with { Notes = [Note], RanFinalCode = false };
        AbPairOutcome notFinal = new([tier0, Record("head", "BodiesPerf.Chain#0", 1.3, 0, paired: true)], [], null);
        AbPairOutcome[] pairs = [Pair(1.3, 0), notFinal, Pair(1.3, 0), Pair(1.3, 0)];

        AbMeasurement m = AbStatistics.Judge(pairs, Options, final: true).ShouldHaveSingleItem();

        m.SetAsidePairs.ShouldBe(1);
        m.Time!.Pairs.ShouldBe(3);
        m.Time.Ratio.ShouldBe(1.3, 0.01);
        m.Verdict.ShouldBe(AbVerdict.Regressed);
        m.Exact.ShouldHaveSingleItem().Verdict.ShouldBe(AbVerdict.Unchanged);
        AbStatistics.SetAside(notFinal).ShouldBe($"set aside: the base's code was not final ({Note})");
        AbStatistics.SetAside(pairs[0]).ShouldBeNull();
    }

    [Fact]
    public void Judge_WhenNoPairRanFinalCode_JudgesThemAll()
    {
        // A body that compiles code on every call is never final: its pairs are all it has.
        AbPairOutcome NotFinal(double ratio) => new(
            [Record("base", "BodiesPerf.Chain#0", 1.0, 0, paired: true) with { RanFinalCode = false },
             Record("head", "BodiesPerf.Chain#0", ratio, 0, paired: true) with { RanFinalCode = false }], [], null);

        AbMeasurement m = AbStatistics.Judge([NotFinal(1.3), NotFinal(1.3), NotFinal(1.3)], Options, final: true).ShouldHaveSingleItem();

        m.SetAsidePairs.ShouldBe(0);
        m.Time!.Pairs.ShouldBe(3);
        m.Verdict.ShouldBe(AbVerdict.Regressed);
    }

    [Theory]
    [InlineData(",\"final\":false", false)]
    [InlineData(",\"final\":true", true)]
    [InlineData("", true)]
    public void Read_TakesWhetherTheCodeWasFinal_FromTheWorkersRecord(string final, bool expected)
    {
        string path = Path.GetTempFileName();
        try
        {
            File.WriteAllText(path, $$"""{"kind":"measurement","side":"head","test":"T.M","key":"T.M#0","paired":true{{final}},"operationsPerSample":1,"counters":[],"notes":[]}""");
            PairedRecord.Read(path).RanFinalCode.ShouldBe(expected);
        }
        finally
        {
            File.Delete(path);
        }
    }

    // A process pair of one measurement: 400 samples per side, the base's on a wavy machine, the head's the same × ratio;
    // allocated bytes per operation 0 on the base, extraBytes on the head.
    [Theory]
    [InlineData(3_325, 3_325, "Unchanged")]
    [InlineData(3_325, 3_327, "Unchanged")] // +0.06 %: inside the simulated rule's ±0.1 %
    [InlineData(3_325, 3_358, "Regressed")] // +1 %
    [InlineData(3_325, 3_292, "Improved")]
    public void SimulatedCounters_DecideATestWithoutTime_FromItsFirstPair(double baseCount, double headCount, string expected)
    {
        // The first pair counts them; later pairs do not (they repeat): one pair decides.
        AbMeasurement m = AbStatistics.Judge([SimulatedPair(baseCount, headCount)], Options, final: false).ShouldHaveSingleItem();

        m.Verdict.ToString().ShouldBe(expected);
        AbStatistics.WantsMorePairs(m.Verdict).ShouldBeFalse();
        m.Time.ShouldBeNull();
        AbExactCounter simulated = m.Exact.ShouldHaveSingleItem();
        simulated.IsSimulated.ShouldBeTrue();
        simulated.Base.ShouldBe(baseCount);
        simulated.Head.ShouldBe(headCount);
    }

    [Fact]
    public void SimulatedCounters_BesideTime_AddTheirOwnVerdict_AndARiseFailsWhateverTimeSays()
    {
        AbPairOutcome[] pairs = [Pair(1.0, 0), Pair(1.0, 0), Pair(1.0, 0)];
        var withSimulated = new AbPairOutcome(
            [.. pairs[0].Measurements.Select(r => r with
            {
                Counters = [.. r.Counters, Simulated(r.Side == "head" ? 3_400 : 3_325)],
            })],
            [],
            null);

        AbMeasurement m = AbStatistics.Judge([withSimulated, pairs[1], pairs[2]], Options, final: false).ShouldHaveSingleItem();

        m.Time.ShouldNotBeNull();
        m.Exact.Single(static e => e.IsSimulated).Verdict.ShouldBe(AbVerdict.Regressed);
        m.Verdict.ShouldBe(AbVerdict.Regressed);
    }

    private static AbPairOutcome SimulatedPair(double baseCount, double headCount)
    {
        PairedRecord Side(string side, double perOperation) => new(
            "measurement", side, "BodiesPerf.Count", "BodiesPerf.Count#0", true, 300, [Simulated(perOperation)], [], null);
        return new AbPairOutcome([Side("base", baseCount), Side("head", headCount)], [], null);
    }

    private static PairedRecordCounter Simulated(double perOperation) =>
        new(CounterNames.SimInstructions, "events", CounterKind.Simulated, null, [.. Enumerable.Repeat((ulong)Math.Round(perOperation * 300), 10)]);

    private static AbPairOutcome Pair(double ratio, int extraBytes) =>
        new([Record("base", "BodiesPerf.Chain#0", 1.0, 0, paired: true), Record("head", "BodiesPerf.Chain#0", ratio, extraBytes, paired: true)], [], null);

    private static PairedRecord Record(string side, string key, double ratio, int bytes, bool paired)
    {
        const int Samples = 400, Operations = 100;
        var tsc = new ulong[Samples];
        var allocated = new ulong[Samples];
        for (int k = 0; k < Samples; k++)
        {
            // The machine's speed drifts and jitters over time, the same for both sides at sample k: the pair cancels it.
            double machine = 1 + (0.2 * Math.Sin(k / 40.0)) + (k % 7 == 0 ? 0.3 : 0);
            tsc[k] = (ulong)Math.Round(1_000 * Operations * machine * ratio);
            allocated[k] = (ulong)(bytes * Operations);
        }

        PairedRecordCounter[] counters =
        [
            new(CounterNames.Tsc, "ticks", CounterKind.Tsc, null, tsc),
            new(CounterNames.AllocatedBytes, "bytes", CounterKind.Runtime, null, allocated),
        ];
        return new PairedRecord("measurement", side, key[..key.IndexOf('#')], key, paired, Operations, counters, [], null);
    }

    private static double StandardDeviation(double[] values)
    {
        double mean = values.Average();
        return Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (values.Length - 1));
    }
}
