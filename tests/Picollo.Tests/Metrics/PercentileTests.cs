extern alias HdrNet;

using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class PercentileTests
{
    private static readonly double[] s_ranks = [0, 0.1, 1, 5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 99, 99.9, 99.99, 100];

    public static TheoryData<string, double> Distributions()
    {
        var data = new TheoryData<string, double>();
        foreach (string name in new[] { "uniform", "lognormal", "bimodal", "heavy-tail" })
        {
            foreach (double relativeError in new[] { 0.01, 0.001, 0.0005 })
                data.Add(name, relativeError);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Distributions))]
    public void Percentiles_AgreeWithExactSortedArrayOrderStatistics(string distribution, double relativeError)
    {
        ulong[] values = Generate(distribution, 200_000, seed: 11);
        var h = HdrHistogram.Factory.WithRelativeError(relativeError).Create();
        foreach (ulong v in values)
            h.Record(v);

        ulong[] sorted = values.Order().ToArray();
        var percentiles = new Percentile[s_ranks.Length];
        h.GetPercentiles(s_ranks, percentiles);

        for (int i = 0; i < s_ranks.Length; i++)
        {
            Percentile p = percentiles[i];
            ulong exact = sorted[p.CountAtRank - 1];

            // The exact order statistic lies in the reported bucket, and the midpoint is within precision.
            exact.ShouldBeGreaterThanOrEqualTo(p.Bucket.Start, $"{distribution} P{s_ranks[i]}");
            (exact - p.Bucket.Start).ShouldBeLessThan(p.Bucket.Step, $"{distribution} P{s_ranks[i]}");
            if (exact != 0)
                (Math.Abs((double)p.Value - exact) / exact).ShouldBeLessThanOrEqualTo(h.RelativeError * (1 + 1e-12));
        }

        // The position a rank asks for: ceil(rank/100 · n), at least 1.
        percentiles[0].CountAtRank.ShouldBe(1UL);
        percentiles[^1].CountAtRank.ShouldBe((ulong)values.Length);
    }

    [Theory]
    [InlineData("uniform")]
    [InlineData("lognormal")]
    [InlineData("bimodal")]
    [InlineData("heavy-tail")]
    public void Percentiles_AgreeWithHdrHistogramNetBucketForBucket(string distribution)
    {
        // 3 significant digits in HdrHistogram.NET is the same layout as relative error 5e-4 here.
        ulong[] values = Generate(distribution, 200_000, seed: 5);
        var reference = new HdrNet::HdrHistogram.LongHistogram(long.MaxValue, 3);
        var h = HdrHistogram.Factory.WithRelativeError(0.0005).Create();
        foreach (ulong v in values)
        {
            reference.RecordValue((long)v);
            h.Record(v);
        }

        ulong[] sorted = values.Order().ToArray();
        HdrBuckets layout = h.Layout;
        foreach (double rank in s_ranks)
        {
            // HdrHistogram.NET rounds the rank position to nearest, this library rounds it up (as the
            // article does): each must report the highest value of the bucket of its own order statistic,
            // and the two must be identical whenever the positions coincide.
            long theirPosition = Math.Max(1, (long)(rank / 100 * values.Length + 0.5));
            Percentile ours = h.GetPercentile(rank, EquivalentValueSelection.Upper);
            long theirs = reference.GetValueAtPercentile(rank);

            ((ulong)theirs).ShouldBe(layout.GetBucketHighestValue(layout.GetLogicalIndexForValue(sorted[theirPosition - 1])), $"{distribution} P{rank}");
            ours.Value.ShouldBe(layout.GetBucketHighestValue(layout.GetLogicalIndexForValue(sorted[ours.CountAtRank - 1])), $"{distribution} P{rank}");
            if ((ulong)theirPosition == ours.CountAtRank)
                ours.Value.ShouldBe((ulong)theirs, $"{distribution} P{rank}");
        }

        h.TotalCount.ShouldBe((ulong)reference.TotalCount);
    }

    [Fact]
    public void EquivalentValueSelection_PicksStartMidpointOrHighestValue()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.01).Create();
        h.Record(24_900);

        h.GetPercentileValue(50, EquivalentValueSelection.Lower).ShouldBe(24_832UL);
        h.GetPercentileValue(50, EquivalentValueSelection.Midpoint).ShouldBe(24_960UL);
        h.GetPercentileValue(50, EquivalentValueSelection.Upper).ShouldBe(25_087UL);
        h.GetPercentileValue(50).ShouldBe(24_960UL);
    }

    [Fact]
    public void DefaultEquivalentValueSelection_IsMidpoint_AndNotSettable()
    {
        Percentile.DefaultEquivalentValueSelection.ShouldBe(EquivalentValueSelection.Midpoint);
        typeof(Percentile).GetProperty(nameof(Percentile.DefaultEquivalentValueSelection))!.CanWrite.ShouldBeFalse();
    }

    [Fact]
    public void BatchAndScalarForms_AgreeForAnyRankOrder()
    {
        var h = HdrHistogram.Factory.Create();
        foreach (ulong v in Generate("lognormal", 50_000, seed: 3))
            h.Record(v);

        double[] ranks = [99, 1, 50, 50, 0, 100, 75];
        var batch = new Percentile[ranks.Length];
        var values = new ulong[ranks.Length];
        h.GetPercentiles(ranks, batch);
        h.GetPercentileValues(ranks, values);

        for (int i = 0; i < ranks.Length; i++)
        {
            batch[i].ShouldBe(h.GetPercentile(ranks[i]));
            values[i].ShouldBe(batch[i].Value);
        }
    }

    [Fact]
    public void EmptyHistogram_GivesZeroValuesAndZeroPositions()
    {
        var h = HdrHistogram.Factory.Create();

        Percentile p = h.GetPercentile(99);
        p.Value.ShouldBe(0UL);
        p.CountAtRank.ShouldBe(0UL);
        p.Rank.ShouldBe(99);
        h.BucketPercentilesWithValues.ShouldBeEmpty();
    }

    [Theory]
    [InlineData(-0.001)]
    [InlineData(100.001)]
    [InlineData(double.NegativeInfinity)]
    [InlineData(double.PositiveInfinity)]
    public void RankOutsideZeroToHundred_ThrowsArgumentOutOfRange(double rank)
    {
        var h = HdrHistogram.Factory.Create();
        var ex = Should.Throw<ArgumentOutOfRangeException>(() => h.GetPercentile(rank));
        ex.Message.ShouldContain("[0, 100]");
    }

    [Fact]
    public void NaNRank_ThrowsArgumentException()
    {
        var h = HdrHistogram.Factory.Create();
        Should.Throw<ArgumentException>(() => h.GetPercentileValue(double.NaN)).Message.ShouldContain("NaN");
    }

    [Fact]
    public void ShortDestination_ThrowsWithBothLengths()
    {
        var h = HdrHistogram.Factory.Create();
        var ex = Should.Throw<ArgumentException>(() => h.GetPercentiles([50, 99], new Percentile[1]));
        ex.ParamName.ShouldBe("destination");
        ex.Message.ShouldContain("1 items but 2 ranks");
    }

    [Fact]
    public void ToString_PrintsRankValueIndexesBoundsAndCount()
    {
        var bucket = new HdrBucket(83, 609, 24_832, 256, 14_190);
        new Percentile(99, 24_960, 990_000, bucket).ToString().ShouldBe("P99=24,960 [83 / 609]: [24,832, 25,088) 14,190");
        new Percentile(9.19135, 20_096, 1, bucket).ToString().ShouldStartWith("P9.1914=");
    }

    [Fact]
    public void ToString_OfTheTopBucket_PrintsTwoToThe64AsItsExclusiveEnd()
    {
        var h = HdrHistogram.Factory.WithRelativeError(0.1).Create();
        h.Record(ulong.MaxValue);

        h.GetPercentile(100).ToString().ShouldEndWith(", 18,446,744,073,709,551,616) 1");
    }

    internal static ulong[] Generate(string distribution, int count, int seed)
    {
        var random = new Random(seed);
        var values = new ulong[count];
        for (int i = 0; i < count; i++)
        {
            double x = distribution switch
            {
                "uniform" => random.NextDouble() * 1_000_000,
                "lognormal" => Math.Exp(10 + 1.5 * Gaussian(random)),
                "bimodal" => random.Next(2) == 0 ? 20_000 + 500 * Gaussian(random) : 80_000 + 3_000 * Gaussian(random),
                "heavy-tail" => 1_000 / Math.Pow(1 - random.NextDouble(), 1 / 1.2), // Pareto, alpha 1.2
                _ => throw new ArgumentOutOfRangeException(nameof(distribution)),
            };
            values[i] = (ulong)Math.Clamp(x, 0, 1e18);
        }

        return values;
    }

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
