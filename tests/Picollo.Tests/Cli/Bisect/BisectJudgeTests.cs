using Picollo.Cli.Ab;
using Picollo.Cli.Bisect;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Bisect;

/// <summary>
/// <see cref="BisectJudge"/> from verdicts, nothing built (issue 52): the change the bad commit shows (exact counters
/// before time, the JIT's last among them, regressions before improvements), and a step's verdict on it: bad when the same counter moved the same way,
/// good when not, undecided when the time stayed inconclusive, skipped when the test was not measured.
/// </summary>
public sealed class BisectJudgeTests
{
    private static readonly AbTest s_alloc = new("Lib.PerfTests.WorkPerf.Alloc", "Lib.PerfTests.WorkPerf", "Alloc");
    private static readonly AbTest s_chain = new("Lib.PerfTests.WorkPerf.Chain", "Lib.PerfTests.WorkPerf", "Chain");
    private static readonly AbOptions s_options = new();

    [Fact]
    public void Changes_ExactCountersFirst_TheJitsAfterTheOthers_ThenTime_RegressionsBeforeImprovements()
    {
        AbTestResult[] results =
        [
            Result(s_chain, Time(1.30, 1.20, 1.40), Bytes(0, 0)),
            Result(s_alloc, Time(0.70, 0.60, 0.80), [new("jit-il-bytes", "bytes", 1.41, 6.89, AbVerdict.Regressed), .. Bytes(0, 24)]),
        ];

        IReadOnlyList<BisectChange> changes = BisectJudge.Changes(results, s_options);

        changes.Select(static c => c.ToString()).ShouldBe(
        [
            "WorkPerf.Alloc: allocated-bytes regressed (0 → 24 bytes/op)",
            "WorkPerf.Alloc: jit-il-bytes regressed (1.41 → 6.89 bytes/op)",
            "WorkPerf.Chain: tsc regressed (×1.300 (+30.0%))",
            "WorkPerf.Alloc: tsc improved (×0.700 (-30.0%))",
        ]);
        changes[0].Exact.ShouldBeTrue();
        changes[1].Exact.ShouldBeTrue();
        changes[2].Exact.ShouldBeFalse();
    }

    [Fact]
    public void Changes_NoneWhenEverythingIsUnchanged_OrOnlyInconclusive()
    {
        AbTestResult[] results = [Result(s_chain, Time(1.001, 0.99, 1.01), Bytes(24, 24)), Result(s_alloc, Time(1.1, 0.9, 1.4), Bytes(0, 0))];

        BisectJudge.Changes(results, s_options).ShouldBeEmpty();
    }

    [Fact]
    public void Step_OnAnExactCounter_IsBadWhenItMovedTheSameWay_AndGoodOtherwise()
    {
        BisectChange change = BisectJudge.Changes([Result(s_alloc, null, Bytes(0, 24))], s_options).Single();

        BisectJudge.Step(change, [Result(s_alloc, null, Bytes(0, 24))], s_options)
            .ShouldBe(new BisectStep(BisectVerdict.Bad, "allocated-bytes 0 → 24 bytes/op"));
        BisectJudge.Step(change, [Result(s_alloc, null, Bytes(0, 0))], s_options)
            .ShouldBe(new BisectStep(BisectVerdict.Good, "allocated-bytes 0 → 0 bytes/op"));
        BisectJudge.Step(change, [Result(s_alloc, null, Bytes(24, 0))], s_options).Verdict.ShouldBe(BisectVerdict.Good);
    }

    [Fact]
    public void Step_OnTime_IsBadWhenItRegressedToo_UndecidedWhenInconclusive_GoodWhenUnchanged()
    {
        BisectChange change = BisectJudge.Changes([Result(s_chain, Time(1.30, 1.20, 1.40), [])], s_options).Single();

        BisectJudge.Step(change, [Result(s_chain, Time(1.25, 1.15, 1.35), [])], s_options).Verdict.ShouldBe(BisectVerdict.Bad);
        BisectJudge.Step(change, [Result(s_chain, Time(1.10, 0.95, 1.30), [])], s_options).Verdict.ShouldBe(BisectVerdict.Undecided);
        BisectStep unchanged = BisectJudge.Step(change, [Result(s_chain, Time(1.0, 0.98, 1.02), [])], s_options);
        unchanged.Verdict.ShouldBe(BisectVerdict.Good);
        unchanged.Summary.ShouldBe("tsc ×1.000 (0.0%), unchanged within ±1.0%");
        BisectJudge.Step(change, [Result(s_chain, Time(0.7, 0.6, 0.8), [])], s_options).Verdict.ShouldBe(BisectVerdict.Good);
    }

    [Fact]
    public void Step_WithoutTheTestOrItsCounter_IsSkipped_AndSaysWhy()
    {
        BisectChange change = BisectJudge.Changes([Result(s_alloc, null, Bytes(0, 24))], s_options).Single();
        AbTestResult crashed = new(s_alloc, "tests/Lib.PerfTests/Lib.PerfTests.csproj", AbVerdict.NotJudged, [], 1,
            ["The head worker exited with code 3 without measuring."]);

        BisectJudge.Step(change, [], s_options)
            .ShouldBe(new BisectStep(BisectVerdict.Skipped, "WorkPerf.Alloc was not measured (the commit has no such test or counter)"));
        BisectJudge.Step(change, [crashed], s_options)
            .ShouldBe(new BisectStep(BisectVerdict.Skipped, "WorkPerf.Alloc was not measured (The head worker exited with code 3 without measuring)"));
        BisectJudge.Step(change, [Result(s_alloc, Time(1, 0.99, 1.01), [])], s_options).Verdict.ShouldBe(BisectVerdict.Skipped);
    }

    private static AbTestResult Result(AbTest test, AbTimeEstimate? time, IReadOnlyList<AbExactCounter> exact) =>
        new(test, "tests/Lib.PerfTests/Lib.PerfTests.csproj", AbVerdict.Unchanged,
            [new AbMeasurement(test.ShortName + "#0", AbVerdict.Unchanged, time, exact)], 3, []);

    // Three pairs' pooled ratio; the equivalence interval a little inside the run's.
    private static AbTimeEstimate Time(double ratio, double low, double high) =>
        new("tsc", [ratio, ratio, ratio], ratio, low, high, 0.99, 5)
        {
            EquivalenceLow = ratio - ((ratio - low) / 2),
            EquivalenceHigh = ratio + ((high - ratio) / 2),
        };

    private static AbExactCounter[] Bytes(double @base, double head) =>
    [
        new("allocated-bytes", "bytes", @base, head,
            head > @base + 0.5 ? AbVerdict.Regressed : head < @base - 0.5 ? AbVerdict.Improved : AbVerdict.Unchanged),
    ];
}
