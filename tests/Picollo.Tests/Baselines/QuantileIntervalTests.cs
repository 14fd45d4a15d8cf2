using Picollo.Baselines;
using Picollo.Baselines.Rules;
using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

public sealed class QuantileIntervalTests
{
    [Theory]
    [InlineData(1_000, 0.10, 76, 126)]
    [InlineData(1_000, 0.25, 215, 287)]
    [InlineData(1_000, 0.50, 459, 542)]
    [InlineData(100, 0.10, 3, 19)]
    [InlineData(51, 0.10, 1, 12)]
    [InlineData(19, 0.25, 1, 11)]
    [InlineData(8, 0.50, 1, 8)]
    public void Ranks_AreTheBinomialOrderStatistics(long n, double p, long lower, long upper) =>
        QuantileInterval.Ranks(n, p).ShouldBe((lower, upper));

    [Theory]
    [InlineData(50, 0.10)]
    [InlineData(18, 0.25)]
    [InlineData(7, 0.50)]
    [InlineData(0, 0.50)]
    public void Ranks_TooFewSamples_HaveNoInterval(long n, double p) => QuantileInterval.Ranks(n, p).ShouldBeNull();

    [Fact]
    public void Ranks_CoverTheTrueQuantile_AtLeast99PercentOfTheTime()
    {
        // 2,000 draws of 200 uniform samples: the interval of P10 must hold 0.1 in at least 99 % of them (it is conservative).
        var random = new Random(7);
        (long l, long u) = QuantileInterval.Ranks(200, 0.10)!.Value;
        int covered = 0;
        for (int draw = 0; draw < 2_000; draw++)
        {
            double[] x = [.. Enumerable.Range(0, 200).Select(_ => random.NextDouble()).Order()];
            if (x[l - 1] <= 0.10 && 0.10 <= x[u - 1])
                covered++;
        }

        covered.ShouldBeGreaterThanOrEqualTo(1_980 - 10, "99 % of 2,000, less a binomial allowance of about 2 standard deviations");
    }

    [Fact]
    public void RelativeStandardError_ShrinksWithTheSquareRootOfTheSamples_AndNeverUndercutsTheBuckets()
    {
        double Se(int n)
        {
            HdrHistogram h = HdrHistogram.Factory.Create();
            for (int i = 0; i < n; i++)
                h.Record((ulong)(100_000 + (i * 100_000L / n)));
            return QuantileInterval.RelativeStandardError(h, 0.10)!.Value;
        }

        (Se(400) / Se(1_600)).ShouldBe(2.0, 0.3);
        HdrHistogram constant = HdrHistogram.Factory.Create();
        constant.Record(1_000, 1_000);
        QuantileInterval.RelativeStandardError(constant, 0.10).ShouldBe(constant.Layout.RelativeError / Math.Sqrt(3));
    }

    [Theory]
    [InlineData(0.95, 1.6448536)]
    [InlineData(0.99, 2.3263479)]
    [InlineData(0.5, 0)]
    [InlineData(0.005, -2.5758293)]
    public void NormalQuantile_MatchesTheTables(double p, double z) => NormalQuantile.Of(p).ShouldBe(z, 1e-6);
}
