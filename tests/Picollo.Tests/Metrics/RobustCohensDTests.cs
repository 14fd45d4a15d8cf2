using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

/// <summary>
/// Timing samples: a tight body around 1,000 with 2% of samples preempted (×50). The classic d is owned by those
/// few samples; the robust d follows the body of the distribution.
/// </summary>
public sealed class RobustCohensDTests
{
    [Fact]
    public void SameCode_WithOutliersOnOneSideOnly_HasARobustDNearZero()
    {
        var clean = Timing(center: 1_000, outlierShare: 0.0, seed: 1);
        var preempted = Timing(center: 1_000, outlierShare: 0.02, seed: 2);

        Math.Abs(HdrHistogramSummary.RobustCohensD(clean, preempted)).ShouldBeLessThan(0.2);
        HdrHistogramSummary.CohensD(clean, preempted).ShouldBeGreaterThan(0.2, "the classic d moves with the outliers");
    }

    [Fact]
    public void ThirtyPercentMoreWork_UnderTheSameOutliers_HasALargeRobustD()
    {
        var before = Timing(center: 1_000, outlierShare: 0.02, seed: 3);
        var after = Timing(center: 1_300, outlierShare: 0.02, seed: 4);

        HdrHistogramSummary.RobustCohensD(before, after).ShouldBeGreaterThan(3);
        HdrHistogramSummary.CohensD(before, after).ShouldBeLessThan(0.8, "the classic d misses it behind the outliers");
        HdrHistogramSummary.RobustCohensD(after, before).ShouldBeLessThan(-3);
    }

    [Fact]
    public void PerOperation_ScalesEachSideByItsOwnOperations()
    {
        var a = Timing(center: 1_000, outlierShare: 0.01, seed: 5, scale: 1_000);
        var b = Timing(center: 1_000, outlierShare: 0.01, seed: 6, scale: 950);

        Math.Abs(HdrHistogramSummary.RobustCohensD(a, b, 1_000, 950)).ShouldBeLessThan(0.3);
        HdrHistogramSummary.RobustCohensD(new HdrHistogramSummary(), a).ShouldBe(double.NaN);
        Should.Throw<ArgumentOutOfRangeException>(() => HdrHistogramSummary.RobustCohensD(a, b, 0, 1));
    }

    private static HdrHistogramSummary Timing(double center, double outlierShare, int seed, double scale = 1)
    {
        var random = new Random(seed);
        var h = HdrHistogram.Factory.Create();
        for (int i = 0; i < 5_000; i++)
        {
            double value = center * (1 + (0.02 * ((2 * random.NextDouble()) - 1)));
            if (random.NextDouble() < outlierShare)
                value *= 50;
            h.Record((ulong)(value * scale));
        }

        return h.GetSummary();
    }
}
