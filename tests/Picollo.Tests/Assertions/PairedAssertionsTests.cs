using System.Text;
using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Tests.Measurement;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary>
/// The relative assertions on synthetic comparisons (issue 25): a claim passes inside its interval, fails beyond it,
/// measures again in between and fails as undecided after three measurements; every message kind is a stored
/// expectation in <c>Approved/Paired.Messages.approved.md</c>.
/// </summary>
public sealed class PairedAssertionsTests
{
    [Fact]
    public void ATwiceFasterCandidate_PassesFasterBy1Point5_WithoutMeasuringAgain()
    {
        PerfComparison c = Compared(shift: -0.5, seed: 1);

        c.Tsc.ShouldBeFasterBy(1.5);
        c.Tsc.ShouldNotBeSlower(maxChange: 0);
        c.ShouldNotBeSlower();
        c.Measurements.ShouldBe(1);
    }

    [Fact]
    public void EveryMessage_SaysTheClaim_TheRatioWithItsInterval_AndTheTable()
    {
        var text = new StringBuilder();
        Case(text, "An equal candidate claimed 1.5× faster", () => Compared(0, 2).Tsc.ShouldBeFasterBy(1.5));
        Case(text, "A 3× slower candidate claimed not more than 5 % slower", () => Compared(2.0, 3).Tsc.ShouldNotBeSlower(maxChange: 0.05));
        Case(text, "The same, on every time counter at once", () => Compared(2.0, 3).ShouldNotBeSlower(maxChange: 0.05));
        Case(text, "Twice as fast, with a Cohen's d_z gate it does not reach", () => Compared(-0.5, 4).Tsc.ShouldBeFasterBy(1.5, minCohensD: 50));
        Case(text, "A change right at the claimed bound: undecided after three measurements", () => Compared(0.05, 5, again: true).Tsc.ShouldNotBeSlower(maxChange: 0.05));
        Case(text, "An exact counter that increased", () => PairedStatisticsTests.Comparison(new SyntheticPairs(100, 0, 6), 24, 32).AllocatedBytes.ShouldNotIncrease());
        Case(text, "No increase asked of a time counter", () => Compared(0, 7).Tsc.ShouldNotIncrease());
        Case(text, "Code never final: one measurement set aside, then judged", () => NeverFinal(17).Tsc.ShouldBeFasterBy(1.5));
        Case(text, "A speed-up of 0", () => Compared(0, 8).Tsc.ShouldBeFasterBy(0));
        Case(text, "A speed-up of NaN", () => Compared(0, 8).Tsc.ShouldBeFasterBy(double.NaN));
        Case(text, "A negative allowed slowdown", () => Compared(0, 8).Tsc.ShouldNotBeSlower(maxChange: -0.1));
        Case(text, "A negative Cohen's d_z", () => Compared(0, 8).Tsc.ShouldBeFasterBy(1.5, minCohensD: -1));

        Approvals.Verify(text.ToString(), "Paired.Messages");
    }

    [Fact]
    public void AnUndecidedClaim_MeasuresAgain_AndPassesOnceThePooledIntervalSettlesIt()
    {
        // 12 pairs: 6 batches, whose widest interval covers 97 %, short of 99 %; the second measurement adds 20 batches.
        int calls = 0;
        var first = new SyntheticPairs(12, -0.5, seed: 9);
        var comparison = new PerfComparison(Sides(first), () => Sides(new SyntheticPairs(1_000, -0.5, seed: 10 + calls++)));
        comparison.Tsc.Confidence.ShouldBeLessThan(0.99);

        comparison.Tsc.ShouldBeFasterBy(1.5);

        comparison.Measurements.ShouldBe(2);
        calls.ShouldBe(1);
        comparison.Tsc.Pairs.ShouldBe(1_012);
    }

    [Fact]
    public void AClaimClearlyWrong_FailsAtOnce_WithoutMeasuringAgain()
    {
        int calls = 0;
        var comparison = new PerfComparison(Sides(new SyntheticPairs(1_000, 0, seed: 11)), () => { calls++; return Sides(new SyntheticPairs(1_000, 0, seed: 12)); });

        Should.Throw<PerfAssertionException>(() => comparison.Tsc.ShouldBeFasterBy(1.5));

        calls.ShouldBe(0);
    }

    [Fact]
    public void AMeasurementOfCodeNotFinal_IsSetAside_AndTheClaimJudgesTheNextOne()
    {
        // The first measurement's candidate is only 1.18× faster: either side's callee was still at tier 0 (issue 24). Pooled,
        // it would fail a claim of 1.5× that the final code keeps; set aside, the claim judges the second measurement alone.
        int calls = 0;
        var comparison = new PerfComparison(
            NotFinal(Sides(new SyntheticPairs(1_000, -0.15, seed: 13))), () => { calls++; return Sides(new SyntheticPairs(1_000, -0.5, seed: 14)); });
        using RecordingHost host = RecordingHost.Install();

        comparison.Tsc.ShouldBeFasterBy(1.5);
        comparison.AllocatedBytes.ShouldNotIncrease();

        calls.ShouldBe(1);
        comparison.Measurements.ShouldBe(1);
        comparison.Pairs.ShouldBe(1_000);
        comparison.SetAside.ShouldBe([WarmupNote]);
        string output = host.Output.ShouldHaveSingleItem();
        output.ShouldContain(", after measuring again.", Shouldly.Case.Sensitive);
        output.ShouldContain($"Set aside: a measurement in which either side's code was not final. {WarmupNote}", Shouldly.Case.Sensitive);
        output.ShouldContain("Measured again once; the pairs judged ran both sides' final code.", Shouldly.Case.Sensitive);
    }

    [Fact]
    public void CodeNeverFinal_IsMeasuredAgainOnce_ThenJudged_SayingSo()
    {
        int calls = 0;
        var comparison = new PerfComparison(
            NotFinal(Sides(new SyntheticPairs(1_000, -0.15, seed: 15))), () => NotFinal(Sides(new SyntheticPairs(1_000, -0.15, seed: 16 + calls++))));

        PerfAssertionException e = Should.Throw<PerfAssertionException>(() => comparison.Tsc.ShouldBeFasterBy(1.5));

        calls.ShouldBe(PerfComparison.MaxSetAside);
        comparison.Measurements.ShouldBe(1);
        e.Message.ShouldContain("Measured again once and the code was still not final", Shouldly.Case.Sensitive);
    }

    private const string WarmupNote = "Warmup stopped at 1,500 ms with the body's code still tier-0.";

    // Equal sides whose code is never final, however often measured.
    private static PerfComparison NeverFinal(int seed)
    {
        int next = seed * 100;
        return new PerfComparison(NotFinal(Sides(new SyntheticPairs(1_000, 0, seed))), () => NotFinal(Sides(new SyntheticPairs(1_000, 0, ++next))));
    }

    private static (PerfResult, PerfResult) NotFinal((PerfResult Reference, PerfResult Candidate) sides) =>
        (NotFinal(sides.Reference), NotFinal(sides.Candidate));

    private static PerfResult NotFinal(PerfResult result) =>
        new([.. result.Counters], result.Options, result.Run with { WarmupEnd = WarmupEnd.TimeCap, Notes = [WarmupNote] });

    private static PerfComparison Compared(double shift, int seed, bool again = false)
    {
        int next = seed * 100;
        return new PerfComparison(Sides(new SyntheticPairs(1_000, shift, seed)), again ? () => Sides(new SyntheticPairs(1_000, shift, ++next)) : null);
    }

    private static (PerfResult, PerfResult) Sides(SyntheticPairs pairs)
    {
        PerfComparison c = PairedStatisticsTests.Comparison(pairs, 0, 0);
        return (c.Reference, c.Candidate);
    }

    private static void Case(StringBuilder text, string title, Action claim)
    {
        text.Append("## ").Append(title).Append("\n\n");
        Exception e = Should.Throw<Exception>(claim);
        text.Append(e.GetType().Name).Append(":\n\n").Append(e.Message.ReplaceLineEndings("\n").TrimEnd()).Append("\n\n");
    }
}
