using Picollo.Cli.Ab;
using Picollo.Measurement.Engine;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The base's and the head's builds of one test project run their tests in different orders (xunit v3 hashes the assembly's
/// path into the IDs it orders by; the two builds sit in two worktrees), so a process pair measures paired only the
/// tests both reach in one relative order. What a pair shows of each build's order plans the next pairs: runs of tests both
/// builds take in one order, as few as the two orders allow; a test measured on both sides but never paired is no
/// pair of its own and runs again.
/// </summary>
public sealed class AbRunOrderTests
{
    private static readonly AbTest[] s_tests = [.. "ABCDE".Select(static c => new AbTest($"Lib.WorkPerf.{c}", "Lib.WorkPerf", c.ToString()))];
    private static readonly AbTestAssembly s_base = new("tests/Lib.PerfTests/Lib.PerfTests.csproj", "/w/base/Lib.PerfTests.dll", AbFramework.Xunit, s_tests);
    private static readonly AbTestAssembly s_head = s_base with { AssemblyPath = "/w/head/Lib.PerfTests.dll" };

    [Fact]
    public void Runs_OfTwoOrders_AreTheFewestRunsBothBuildsTakeInOneOrder_EachInThatOrder()
    {
        var order = new AbRunOrder();
        order.Observe(s_base, Tests("ABCDE"));
        order.Observe(s_head, Tests("CADBE"));

        List<List<AbTest>> runs = order.Runs(s_tests, static t => t, s_base, s_head);

        // The head's order read in the base's places is 2 0 3 1 4: its longest decreasing run is two long, so two runs are
        // the fewest; C D E and A B are in order in both builds.
        runs.Select(Names).ShouldBe(["CDE", "AB"]);
    }

    [Fact]
    public void Runs_OfOneOrder_AreOneRun()
    {
        var order = new AbRunOrder();
        order.Observe(s_base, Tests("EDCBA"));
        order.Observe(s_head, Tests("EDCBA"));

        order.Runs(s_tests, static t => t, s_base, s_head).Select(Names).ShouldBe(["EDCBA"]);
    }

    [Fact]
    public void Runs_PutATestWhoseOrderOneBuildNeverShowed_Alone()
    {
        var order = new AbRunOrder();
        order.Observe(s_base, Tests("ABCDE"));
        order.Observe(s_head, Tests("ABCD"));

        order.Runs(s_tests, static t => t, s_base, s_head).Select(Names).ShouldBe(["ABCD", "E"]);
    }

    [Fact]
    public void Runs_NeverJoinTestsNoOnePairShowedTogether()
    {
        // Two pairs of two tests each: their places say nothing of A against C.
        var order = new AbRunOrder();
        order.Observe(s_base, Tests("AB"));
        order.Observe(s_head, Tests("AB"));
        order.Observe(s_base, Tests("CD"));
        order.Observe(s_head, Tests("CD"));

        order.Runs(s_tests[..4], static t => t, s_base, s_head).Select(Names).ShouldBe(["AB", "CD"]);
    }

    [Fact]
    public void Knows_IsFalse_BeforeAPairShowedTheBuildsOrder()
    {
        var order = new AbRunOrder();
        order.Knows(s_base, s_tests).ShouldBeFalse();
        order.Observe(s_head, Tests("BA"));
        order.Knows(s_base, s_tests).ShouldBeFalse();
        order.Knows(s_head, s_tests).ShouldBeTrue();
        order.Knows(s_head, Tests("CDE")).ShouldBeFalse();
    }

    [Theory]
    [InlineData(false, false, 3, true)] // both sides alone: no pair
    [InlineData(true, true, 3, false)] // paired
    [InlineData(false, false, 1, false)] // a pair of one test: its records stand
    public void NeverPaired_IsBothSidesMeasuringEachAlone_InAPairOfSeveralTests(bool basePaired, bool headPaired, int testsInPair, bool never)
    {
        PairedRecord[] own = [Record("base", basePaired), Record("head", headPaired)];
        AbPairOutcomes.NeverPaired(own, testsInPair).ShouldBe(never);
    }

    [Fact]
    public void NeverPaired_IsFalse_ForATestOneBuildAloneMeasured_OrAComparisonInsideOneBuild()
    {
        // A test the base does not have (or skipped) runs on the head alone: its record is the head's numbers, as it should be.
        AbPairOutcomes.NeverPaired([Record("head", paired: false)], 3).ShouldBeFalse();

        // Perf.Compare's relative records are each side's own comparison, never paired across builds.
        PairedRecord[] relative = [Record("base", false) with { Kind = "relative" }, Record("head", false) with { Kind = "relative" }];
        AbPairOutcomes.NeverPaired(relative, 3).ShouldBeFalse();
    }

    private static AbTest[] Tests(string names) => [.. names.Select(static c => s_tests[c - 'A'])];

    private static string Names(List<AbTest> run) => string.Concat(run.Select(static t => t.MethodName));

    private static PairedRecord Record(string side, bool paired) =>
        new("measurement", side, "WorkPerf.A", "WorkPerf.A#0", paired, 100, [], [], null);
}
