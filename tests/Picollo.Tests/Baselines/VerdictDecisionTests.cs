using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The decisions of a judgement from tables of evidence, with nothing measured: what a second measurement confirms,
/// whether a pass rests on the host's branchy state, when a fresh process clears a regression, and how the fresh
/// processes' votes end. Each row is a case the judgement meets (docs/VERDICTS.md, "Confirmation" and "Levels"); the
/// time rule's threshold is +8 %.
/// </summary>
public sealed class VerdictDecisionTests
{
    private static readonly BaselineRecord s_current = Record(
        TscCounter(FloorRun(1)), TaskClock(Constant(200)), AllocatedBytes(Constant(88)));

    private static readonly VerdictPolicy s_policy = VerdictPolicy.Default;

    [Theory]
    // counter, regressed, final code, can measure again → a second measurement decides
    [InlineData("tsc", true, true, true, true)]
    [InlineData("tsc", true, true, false, false)]
    [InlineData("tsc", false, true, true, false)]
    [InlineData(CounterNames.AllocatedBytes, true, true, true, false)]
    [InlineData(CounterNames.AllocatedBytes, true, false, true, true)]
    public void NeedsConfirmation_OnlyWhereTheRegressionCouldBeNoise(
        string counter, bool regressed, bool finalCode, bool canRemeasure, bool expected)
    {
        CounterVerdict[] verdicts = [Verdict(counter, regressed ? CounterVerdictStatus.Regressed : CounterVerdictStatus.Pass, 0.2)];
        var check = new BaselineCheckResult(
            verdicts.Any(static v => v.IsRegression) ? BaselineOutcome.Fail : BaselineOutcome.Pass, verdicts, "b.perf.json", null, "");

        VerdictDecision.NeedsConfirmation(check, s_current, finalCode, canRemeasure, s_policy).ShouldBe(expected);
    }

    [Fact]
    public void NeedsConfirmation_NoSecondLook_WhenAnExactCounterRegressedBesideTime()
    {
        CounterVerdict[] verdicts =
            [Verdict("tsc", CounterVerdictStatus.Regressed, 0.2), Verdict(CounterNames.AllocatedBytes, CounterVerdictStatus.Regressed, 1)];
        var check = new BaselineCheckResult(BaselineOutcome.Fail, verdicts, "b.perf.json", null, "");

        VerdictDecision.NeedsConfirmation(check, s_current, ranFinalCode: true, canRemeasure: true, s_policy).ShouldBeFalse();
    }

    [Theory]
    // regressed first, regressed second, neither final → confirmed
    [InlineData("tsc,task-clock", "tsc", false, "tsc")]
    [InlineData("tsc", "task-clock", false, "")]
    [InlineData("tsc", "tsc", true, "")]
    [InlineData("", "tsc", false, "")]
    public void ConfirmedInProcess_IsWhatRegressedInBoth_AndNothingFromCodeNeverFinal(
        string first, string second, bool neitherFinal, string expected)
    {
        VerdictDecision.ConfirmedInProcess(Regressions(first), Regressions(second), neitherFinal)
            .ShouldBe(Names(expected));
    }

    [Fact]
    public void Unconfirm_TurnsOnlyTheOtherRegressionsIntoUnconfirmedPasses()
    {
        CounterVerdict[] verdicts =
        [
            Verdict("tsc", CounterVerdictStatus.Regressed, 0.2),
            Verdict("task-clock", CounterVerdictStatus.Regressed, 0.2),
            Verdict(CounterNames.AllocatedBytes, CounterVerdictStatus.Pass, 0),
        ];

        VerdictDecision.Unconfirm(verdicts, ["tsc"]).Select(static v => v.Status).ShouldBe(
            [CounterVerdictStatus.Regressed, CounterVerdictStatus.Unconfirmed, CounterVerdictStatus.Pass]);
    }

    [Theory]
    // change, band's upper edge (ln), its branchy part (ln) → passed only on the branchy state
    [InlineData(0.25, 0.35, 0.30, true)]
    [InlineData(0.05, 0.35, 0.30, false)]
    [InlineData(0.25, 0.35, 0.00, false)]
    [InlineData(0.25, 0.35, 0.05, false)]
    public void PassedOnBranchyState_WhenTheRestOfTheBandWouldNotHold(double change, double high, double branchy, bool expected)
    {
        CounterVerdict verdict = Verdict("tsc", CounterVerdictStatus.Pass, change, Band(high, branchy: branchy));

        VerdictDecision.PassedOnBranchyState(verdict, s_current, s_policy).ShouldBe(expected);
    }

    [Fact]
    public void PassedOnBranchyState_NeverForACounterThatIsNotTime()
    {
        CounterVerdict verdict = Verdict(CounterNames.AllocatedBytes, CounterVerdictStatus.Pass, 0.25, Band(0.35, branchy: 0.3));

        VerdictDecision.PassedOnBranchyState(verdict, s_current, s_policy).ShouldBeFalse();
    }

    [Theory]
    // change, band's upper edge (ln) → twice beyond the band
    [InlineData(1.5, 0.0, true)]
    [InlineData(1.0, 0.0, true)]
    [InlineData(0.9, 0.0, false)]
    [InlineData(1.5, 0.3, false)]
    public void Gross_IsTwiceBeyondTheBand(double change, double high, bool expected)
    {
        CounterVerdict[] verdicts = [Verdict("tsc", CounterVerdictStatus.Regressed, change, Band(high))];

        VerdictDecision.Gross(verdicts, ["tsc"]).ShouldBe(expected);
    }

    [Theory]
    // the fresh process's change, its band's high and low edges; this process's high and low edges → the fresh pass clears
    [InlineData(0.03, 0.00, 0.00, 0.00, 0.00, true)]
    [InlineData(0.03, 0.01, 0.00, 0.00, 0.00, true)]
    [InlineData(0.05, 0.30, 0.00, 0.00, 0.00, true)]
    [InlineData(0.20, 0.30, 0.00, 0.00, 0.00, false)]
    [InlineData(0.20, 0.30, 0.00, 0.25, 0.00, true)]
    [InlineData(0.03, 0.00, -0.10, 0.00, 0.00, false)]
    public void Clears_WhenJudgedInNoWiderConditions_OrInsideThisProcesssBand(
        double change, double freshHigh, double freshLow, double mineHigh, double mineLow, bool expected)
    {
        CounterVerdict fresh = Verdict("tsc", CounterVerdictStatus.Pass, change, Band(freshHigh, freshLow));
        CounterVerdict mine = Verdict("tsc", CounterVerdictStatus.Regressed, 0.2, Band(mineHigh, mineLow));

        VerdictDecision.Clears(fresh, mine, s_current, s_policy).ShouldBe(expected);
    }

    [Theory]
    // the fresh processes' outcomes in order (R regressed, P passed in no wider conditions, W passed in wider ones, - ran
    // nothing) → processes asked, whether the regression stands, how many confirmed it
    [InlineData("RRR", 3, true, 3)]
    [InlineData("RP", 2, false, 1)]
    [InlineData("P", 1, false, 0)]
    [InlineData("RWR", 3, true, 2)]
    [InlineData("-RR", 3, true, 2)]
    public void FreshConfirmation_AsksThree_AndTheFirstClearingPassEndsIt(string outcomes, int asked, bool stands, int confirming)
    {
        CounterVerdict mine = Verdict("tsc", CounterVerdictStatus.Regressed, 0.2, Band(0));
        var vote = new FreshProcessVote(FreshQuestion.Regression, [mine], ["tsc"], s_current, s_policy);

        int process = Run(vote.Asks, outcomes, o => vote.Add([Fresh(o)], s_current));

        (process, vote.Stands, vote.Confirming).ShouldBe((asked, stands, confirming));
        vote.Cleared.ShouldBe(stands ? [] : ["tsc"]);
    }

    [Fact]
    public void FreshConfirmation_OfAGrossRegression_AsksOne()
    {
        CounterVerdict mine = Verdict("tsc", CounterVerdictStatus.Regressed, 1.5, Band(0));
        var vote = new FreshProcessVote(FreshQuestion.Regression, [mine], ["tsc"], s_current, s_policy);

        int asked = Run(vote.Asks, "RRR", o => vote.Add([Fresh(o)], s_current));

        (vote.IsGross, asked, vote.Stands).ShouldBe((true, 1, true));
    }

    [Theory]
    // the fresh processes' outcomes (R regressed, P passed without a branchy bound, B passed inside one) → processes asked,
    // whether the counter fails, whether one cleared it
    [InlineData("RR", 2, true, false)]
    [InlineData("P", 1, false, true)]
    [InlineData("BBB", 3, false, false)]
    [InlineData("RBBR", 4, true, false)]
    [InlineData("RBBBB", 5, false, false)]
    [InlineData("BRP", 3, false, true)]
    public void BranchyState_TwoRegressionsFail_AndTheFirstPassWithoutTheStateClears(
        string outcomes, int asked, bool fails, bool cleared)
    {
        var vote = new FreshProcessVote(FreshQuestion.PassOnBranchyState, [], ["tsc"], s_current, s_policy);

        int process = Run(vote.Asks, outcomes, o => vote.Add([Fresh(o)], s_current));

        (process, vote.Failing.Count > 0, vote.Cleared.Count > 0).ShouldBe((asked, fails, cleared));
    }

    // Hands the outcomes to a vote while it asks; returns how many processes it asked.
    private static int Run(Func<int, bool> asks, string outcomes, Action<char> add)
    {
        int process = 1;
        for (; asks(process) && process <= outcomes.Length; process++)
        {
            // A process that measured nothing (it could not run) hands the vote nothing.
            if (outcomes[process - 1] != '-')
                add(outcomes[process - 1]);
        }

        asks(process).ShouldBeFalse($"the vote asked for process {process}, more than the table has");
        return process - 1;
    }

    private static CounterVerdict Fresh(char outcome) => outcome switch
    {
        'R' => Verdict("tsc", CounterVerdictStatus.Regressed, 0.2, Band(0)),
        'P' => Verdict("tsc", CounterVerdictStatus.Pass, 0.01, Band(0)),
        'W' => Verdict("tsc", CounterVerdictStatus.Pass, 0.2, Band(0.5)),
        'B' => Verdict("tsc", CounterVerdictStatus.Pass, 0.4, Band(0.5, branchy: 0.45)),
        _ => throw new ArgumentOutOfRangeException(nameof(outcome)),
    };

    private static TimeAllowance Band(double high, double low = 0, double branchy = 0) =>
        new(0, 0, 0, low, high, []) { Branchy = branchy };

    private static CounterVerdict Verdict(string counter, CounterVerdictStatus status, double change, TimeAllowance? allowance = null) =>
        new(counter, "ticks", status, VerdictMode.Statistical, BaselineStatistic.P10, 100, 100 * (1 + change), change, null, null, null)
        {
            Allowance = allowance,
        };

    private static CounterVerdict[] Regressions(string counters) =>
        [.. Names(counters).Select(static c => Verdict(c, CounterVerdictStatus.Regressed, 0.2))];

    private static string[] Names(string list) => list.Length == 0 ? [] : list.Split(',');
}
