using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Cohen's d over the floor region (issue 24): computed where a disturbed upper half cannot blind it, reported beside z, and
/// an opt-in gate that adds to the rule and never replaces it.
/// </summary>
public sealed class FloorEffectSizeTests
{
    [Fact]
    public void UnchangedRuns_HaveADNearZero()
    {
        double d = FloorEffectSize.Of(TscCounter(FloorRun(seed: 1)), TscCounter(FloorRun(seed: 2)))!.Value;

        Math.Abs(d).ShouldBeLessThan(0.5);
    }

    [Fact]
    public void AShiftedFloor_KeepsALargeD_WhenHalfTheSamplesAreDisturbed_WhereADOfAllSamplesGoesBlind()
    {
        // +15 % beside a neighbour that slowed half the samples of the new run 1.2-3×: the d of all samples (the earlier
        // rule's kind) shrinks under the disturbed half's spread; the floor's does not.
        BaselineCounter before = TscCounter(FloorRun(seed: 1));
        double[] after = FloorRun(seed: 2, scale: 1.15, disturbedShare: 0.5);

        double floor = FloorEffectSize.Of(before, TscCounter(after))!.Value;
        double whole = ClassicD(FloorRun(seed: 1), after);

        floor.ShouldBeGreaterThan(5);
        whole.ShouldBeLessThan(2);
        floor.ShouldBeGreaterThan(3 * whole);
    }

    [Fact]
    public void WhatTheConditionsAllow_IsTakenOffTheDifference()
    {
        BaselineCounter before = TscCounter(FloorRun(seed: 1)), after = TscCounter(FloorRun(seed: 2, scale: 1.3));

        double plain = FloorEffectSize.Of(before, after)!.Value;
        double beyond = FloorEffectSize.Of(before, after, allowance: Math.Log(1.3))!.Value;

        plain.ShouldBeGreaterThan(10);
        Math.Abs(beyond).ShouldBeLessThan(0.5, "the whole change is what the conditions allow");
    }

    [Fact]
    public void TheGate_AddsToTheRule_AndNeverReplacesIt()
    {
        // Two wide distributions (a 30 % spread) whose floors moved 12 %: the threshold and z find a regression; the floors
        // still overlap, so a MaxCohensD of 1.5 holds it back, and 0.5 lets it through.
        BaselineRecord before = Record(TaskClock(Noisy(1_000, 300, seed: 1, count: 4_000)));
        BaselineRecord after = Record(TaskClock(Noisy(1_120, 300, seed: 2, count: 4_000)));
        var file = new BaselineFile([new BaselineEntry(Epyc, before)]);

        CounterVerdict plain = BaselineComparer.Compare(file, Epyc, after).ShouldHaveSingleItem();
        plain.Status.ShouldBe(CounterVerdictStatus.Regressed);
        plain.CohensD!.Value.ShouldBeInRange(0.5, 1.5);

        BaselineComparer.Compare(file, Epyc, after, VerdictPolicy.Default.WithThresholds(maxCohensD: 1.5)).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Pass, "the floors overlap more than the gate allows");
        BaselineComparer.Compare(file, Epyc, after, VerdictPolicy.Default.WithThresholds(maxCohensD: 0.5)).ShouldHaveSingleItem().Status
            .ShouldBe(CounterVerdictStatus.Regressed);

        // The gate never makes a regression out of what the rule passes: +3 % with a tight floor has a large d and no verdict.
        BaselineRecord tight = Record(TscCounter(FloorRun(seed: 1))), slightly = Record(TscCounter(FloorRun(seed: 2, scale: 1.03)));
        CounterVerdict small = BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, tight)]), Epyc, slightly, VerdictPolicy.Default.WithThresholds(maxCohensD: 0.5)).ShouldHaveSingleItem();
        small.CohensD!.Value.ShouldBeGreaterThan(0.5);
        small.Status.ShouldBe(CounterVerdictStatus.Pass, "below the 8 % threshold whatever d says");

        Should.Throw<ArgumentOutOfRangeException>(() => VerdictPolicy.Default.WithThresholds(maxCohensD: 0));
    }

    // Cohen's d of all the samples, on the same log scale: what a disturbed upper half blinds.
    private static double ClassicD(double[] before, double[] after)
    {
        static (double Mean, double Variance) Moments(double[] values)
        {
            double[] logs = [.. values.Select(static v => Math.Log(v))];
            double mean = logs.Average();
            return (mean, logs.Sum(v => (v - mean) * (v - mean)) / (logs.Length - 1));
        }

        (double m0, double v0) = Moments(before);
        (double m1, double v1) = Moments(after);
        return (m1 - m0) / Math.Sqrt((v0 + v1) / 2);
    }
}
