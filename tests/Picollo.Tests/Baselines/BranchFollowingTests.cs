using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// How far a body follows the branchy reference, learned from two measurements of one judgement (issue 24): records of the
/// real floor histograms, the references set as a measurement sets them.
/// </summary>
public sealed class BranchFollowingTests
{
    [Fact]
    public void AChainThatStaysPut_WhileTheBranchyReferenceMoves_IsAllowedLittleOfIt()
    {
        // Bench verdicts run 4, spinner / short: a 2× chain read +107 % beside the reference at 1,311 ns and +149 % at 2,059
        // ns, the core loop 1,300 → 1,480.
        BaselineRecord[] looks = [Look(1, 2.07, 1_300, 1_311), Look(2, 2.49, 1_480, 2_059)];

        BranchFollowing following = BranchFollowing.Learn(looks, "tsc", BaselineStatistic.P10).ShouldNotBeNull();

        double expected = (Math.Log(2.49 / 2.07) - Math.Log(1_480 / 1_300.0)) / (Math.Log(2_059 / 1_311.0) - Math.Log(1_480 / 1_300.0));
        following.Measured.ShouldBe(expected, 0.02, "the floors are the histograms', within a bucket");
        following.Allowed.ShouldBe(following.Measured + JudgementPolicy.Default.BranchFollowMargin, 1e-12);
        following.Allowed.ShouldBeLessThan(JudgementPolicy.Default.BranchFollow);
    }

    [Fact]
    public void AWordCountThatFollows_KeepsTheFullBound()
    {
        // Beyond the core loop a word count follows the reference at about 1.27.
        double Follower(double core, double branch) => core / 1_300 * Math.Pow(branch / 1_311 / (core / 1_300), 1.27);
        BaselineRecord[] looks = [Look(1, 1.0, 1_300, 1_311), Look(2, Follower(1_480, 2_059), 1_480, 2_059)];

        BranchFollowing.Learn(looks, "tsc", BaselineStatistic.P10).ShouldBeNull();
    }

    [Fact]
    public void WithoutAMoveOfTheReferenceBeyondTheCoreLoop_NothingIsLearned()
    {
        // Both references 20 % slower: the host's core, not its branchy state.
        BranchFollowing.Learn([Look(1, 1.0, 1_300, 1_311), Look(2, 1.0, 1_560, 1_573)], "tsc", BaselineStatistic.P10).ShouldBeNull();

        // One measurement, or a reference missing.
        BranchFollowing.Learn([Look(1, 1.0, 1_300, 1_311)], "tsc", BaselineStatistic.P10).ShouldBeNull();
        BaselineRecord withoutCore = Look(2, 1.0, 1_300, 2_059) with { MachineSpeed = null };
        BranchFollowing.Learn([Look(1, 1.0, 1_300, 1_311), withoutCore], "tsc", BaselineStatistic.P10).ShouldBeNull();
        BranchFollowing.Learn([Look(1, 1.0, 1_300, 1_311), Look(2, 1.0, 1_300, 2_059)], "task-clock", BaselineStatistic.P10)
            .ShouldBeNull("no such counter");
    }

    [Fact]
    public void WithSeveralPairs_TheLargestSlopeCounts()
    {
        // A word count whose own level dropped (1.5×) just as the reference slowed: that pair reads a slope near 0.37. The
        // pair without a level switch reads its follow, 1.27, and keeps the full bound.
        double Follower(double branch) => Math.Pow(branch / 1_311, 1.27);
        BaselineRecord[] looks =
        [
            Look(1, 1.5, 1_300, 1_311), Look(2, Follower(2_059), 1_300, 2_059), Look(3, 1.0 * 1.02, 1_300, 1_311 * 0.97),
        ];

        BranchFollowing.Learn(looks[..2], "tsc", BaselineStatistic.P10).ShouldNotBeNull().Measured.ShouldBe(0.37, 0.05);
        BranchFollowing.Learn(looks, "tsc", BaselineStatistic.P10).ShouldBeNull();
    }

    [Fact]
    public void AnAllocatingBody_IsJudgedBeyondItsAllocationReference_AsItsAllowanceIs()
    {
        // Between the two measurements an allocation episode (the reference 1.5× slower) and the branchy reference 1.4× slower,
        // the core loop steady; the body slowed with the allocation reference, not beyond it.
        BaselineRecord[] looks =
        [
            Look(1, 1.0, 1_300, 1_311) with { AllocationSpeed = 12 },
            Look(2, 1.5, 1_300, 1_311 * 1.4) with { AllocationSpeed = 18 },
        ];

        BranchFollowing.Learn(looks, "tsc", BaselineStatistic.P10).ShouldNotBeNull().Measured.ShouldBe(0, 0.05);
        BaselineRecord[] coreOnly = [looks[0] with { AllocationSpeed = null }, looks[1] with { AllocationSpeed = null }];
        BranchFollowing.Learn(coreOnly, "tsc", BaselineStatistic.P10)
            .ShouldBeNull("against the core loop alone it read as a follower: 1.2");
    }

    [Fact]
    public void APair_CountsOnlyWhenOtherProcessesLoadedTheMachineAlike()
    {
        // The chain of the first test, the machine busy for one of the two measurements: a neighbour's start or stop moves a
        // body for reasons of its own. Busy for both at about one load: the pair tells; half a core apart: it does not.
        int cores = Math.Max(1, Environment.ProcessorCount - 1);
        BaselineRecord quiet = Look(1, 2.07, 1_300, 1_311) with { OtherProcessesCores = 0.02 };
        BaselineRecord busy = Look(2, 2.49, 1_480, 2_059) with { OtherProcessesCores = cores };

        BranchFollowing.Learn([quiet, busy], "tsc", BaselineStatistic.P10).ShouldBeNull();
        BranchFollowing.Learn([quiet with { OtherProcessesCores = cores - 0.1 }, busy], "tsc", BaselineStatistic.P10).ShouldNotBeNull();
        BranchFollowing.Learn([quiet with { OtherProcessesCores = cores + 0.5 }, busy], "tsc", BaselineStatistic.P10)
            .ShouldBeNull("the load moved by half a core");
    }

    private static BaselineRecord Look(int seed, double scale, double core, double branch) =>
        Record(TscCounter(FloorRun(seed, scale: scale))) with { MachineSpeed = core, BranchSpeed = branch };
}
