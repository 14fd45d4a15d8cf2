using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Paired;
using Picollo.Metrics;
using Picollo.Tests.Assertions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The paired statistic on synthetic pairs with a known answer (issue 25): a known shift is found inside its interval,
/// identical sides are not called slower, and neither a heavy upper tail on both sides nor bursts on one side move the
/// verdict.
/// </summary>
public sealed class PairedStatisticsTests
{
    [Theory]
    [InlineData(0.05)]
    [InlineData(0.02)]
    [InlineData(-0.30)]
    [InlineData(1.00)]
    public void AKnownShift_LiesInsideItsInterval_AndIsCalledByItsDirection(double shift)
    {
        PairedCounter tsc = Tsc(new SyntheticPairs(1_000, shift, seed: 7));

        tsc.Low.ShouldBeLessThanOrEqualTo(1 + shift);
        tsc.High.ShouldBeGreaterThanOrEqualTo(1 + shift);
        tsc.Ratio.ShouldBe(1 + shift, (1 + shift) * 0.01);
        tsc.Change.ShouldBe(shift > 0 ? PairedChange.Increased : PairedChange.Decreased);
        Math.Sign(tsc.CohensDz).ShouldBe(Math.Sign(shift));
        tsc.Confidence.ShouldBeGreaterThanOrEqualTo(PairedCounter.DefaultConfidence);
    }

    [Fact]
    public void IdenticalSides_AreNeverCalledSlower_In200Runs_AndMostlyUnchanged()
    {
        int slower = 0, unchanged = 0;
        for (int seed = 0; seed < 200; seed++)
        {
            PairedChange change = Tsc(new SyntheticPairs(1_000, 0, seed)).Change;
            slower += change == PairedChange.Increased ? 1 : 0;
            unchanged += change == PairedChange.Unchanged ? 1 : 0;
        }

        slower.ShouldBe(0);
        unchanged.ShouldBeGreaterThan(190);
    }

    [Fact]
    public void AHeavyUpperTailOnBothSides_NeitherCallsIdenticalSidesSlower_NorHidesFivePercent()
    {
        for (int seed = 0; seed < 20; seed++)
        {
            Tsc(new SyntheticPairs(1_000, 0, seed).WithHeavyTails(seed + 1_000)).Change.ShouldNotBe(PairedChange.Increased, $"seed {seed}");
            PairedCounter slower = Tsc(new SyntheticPairs(1_000, 0.05, seed).WithHeavyTails(seed + 1_000));
            slower.Change.ShouldBe(PairedChange.Increased, $"seed {seed}: {slower}");
        }
    }

    [Fact]
    public void BurstsOnOneSideOnly_DoNotMakeIdenticalSidesSlower()
    {
        for (int seed = 0; seed < 20; seed++)
        {
            PairedCounter tsc = Tsc(new SyntheticPairs(1_000, 0, seed).WithCandidateBursts());
            tsc.Change.ShouldNotBe(PairedChange.Increased, $"seed {seed}: {tsc}");
            tsc.Ratio.ShouldBe(1, 0.01);
        }
    }

    [Fact]
    public void ThePerPairMedian_WouldWanderWhereTheBatchFloorsDoNot()
    {
        // The reason the statistic is built on batch floors: on the same pairs, the median of per-pair ratios moves with
        // which side an interrupt hit, the floors do not.
        var pairs = new SyntheticPairs(1_000, 0, seed: 3);
        double[] units = PairedStatistics.Units(pairs.Reference, pairs.Candidate);
        double spreadOfUnits = Quantile(units, 0.9) - Quantile(units, 0.1);
        double[] batches = PairedStatistics.BatchRatios(pairs.Reference, pairs.Candidate);
        double spreadOfBatches = batches.Max() - batches.Min();

        spreadOfUnits.ShouldBeGreaterThan(0.1);
        spreadOfBatches.ShouldBeLessThan(spreadOfUnits / 5);
    }

    [Fact]
    public void TheInterval_UsesTheOrderStatisticsOf20Batches_At99Percent()
    {
        OrderStatistics.Ranks(20, 0.5, 0.005).ShouldBe((4L, 17L));
        OrderStatistics.Coverage(20, 0.5, 4, 17).ShouldBe(1 - (2 * 0.0012884), 1e-6);

        double[] batches = [.. Enumerable.Range(1, 20).Select(static i => i / 100.0)];
        (double location, double low, double high, double coverage) = PairedStatistics.Interval(batches, 0.99);
        location.ShouldBe(0.105, 1e-12);
        low.ShouldBe(0.04);
        high.ShouldBe(0.17);
        coverage.ShouldBeGreaterThan(0.99);
    }

    [Fact]
    public void TooFewBatches_GiveTheWholeRange_WithTheCoverageItHas()
    {
        (double _, double low, double high, double coverage) = PairedStatistics.Interval([0.1, 0.3, 0.2, 0.4, 0.0], 0.99);

        (low, high).ShouldBe((0.0, 0.4));
        coverage.ShouldBe(1 - (2 / 32.0), 1e-12);
    }

    [Fact]
    public void AnExactCounter_IsComparedByItsMeans_Exactly()
    {
        var pairs = new SyntheticPairs(100, 0, seed: 1);
        PerfComparison comparison = Comparison(pairs, referenceBytes: 24, candidateBytes: 0);

        comparison.AllocatedBytes.IsExact.ShouldBeTrue();
        comparison.AllocatedBytes.ReferenceMean.ShouldBe(24);
        comparison.AllocatedBytes.CandidateMean.ShouldBe(0);
        comparison.AllocatedBytes.Change.ShouldBe(PairedChange.Decreased);
        Comparison(pairs, 24, 24).AllocatedBytes.Change.ShouldBe(PairedChange.Unchanged);
    }

    internal static PairedCounter Tsc(SyntheticPairs pairs) => Comparison(pairs, 0, 0).Tsc;

    internal static PerfComparison Comparison(SyntheticPairs pairs, ulong referenceBytes, ulong candidateBytes, Func<SyntheticPairs>? again = null) =>
        new(Side(pairs.Reference, referenceBytes, pairs.Candidate, candidateBytes),
            again is null ? null : () => Side(again().Reference, referenceBytes, again().Candidate, candidateBytes));

    private static (PerfResult, PerfResult) Side(ulong[] reference, ulong referenceBytes, ulong[] candidate, ulong candidateBytes) =>
        (Result(reference, referenceBytes), Result(candidate, candidateBytes));

    private static PerfResult Result(ulong[] tsc, ulong bytes) => SyntheticResults.Result(
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, tsc),
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, tsc.Select(_ => bytes * 1_000)));

    private static double Quantile(double[] values, double q)
    {
        double[] sorted = [.. values.Order()];
        return sorted[(int)((sorted.Length - 1) * q)];
    }
}
