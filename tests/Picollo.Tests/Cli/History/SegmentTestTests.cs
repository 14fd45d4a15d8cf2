using Picollo.Cli.Ab;
using Picollo.Cli.History.ChangePoints;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// The detector's parts (issue 52): Student's t p-values against the tables, the rank test beside the test on the values
/// when one run is far off, the energy statistic's best split.
/// </summary>
public sealed class SegmentTestTests
{
    [Theory]
    [InlineData(12.706, 1, 0.05)]
    [InlineData(2.228, 10, 0.05)]
    [InlineData(3.169, 10, 0.01)]
    [InlineData(-4.587, 10, 0.001)]
    [InlineData(1.960, 100000, 0.05)]
    [InlineData(0, 5, 1)]
    public void TwoSidedP_MatchesTheTables(double t, int df, double expected) =>
        StudentT.TwoSidedP(t, df).ShouldBe(expected, expected * 0.002);

    [Fact]
    public void TwoSidedP_OfAnInfiniteStatistic_IsZero() => StudentT.TwoSidedP(double.PositiveInfinity, 3).ShouldBe(0);

    [Fact]
    public void RankTest_IsNotDraggedByOneRunFarOff()
    {
        // The same level on both sides but one run 70 % slower: the values' t reads the second side as higher with a
        // huge spread; the ranks see one run among twenty.
        double[] series = [.. Enumerable.Range(0, 40).Select(static i => 100 + (i % 5 * 0.5) + (i == 30 ? 70 : 0))];

        SegmentTest.PValue(series, 0, 20, 40, ChangePointTest.Ranks).ShouldBeGreaterThan(0.3);
        SegmentTest.PValue(series, 0, 20, 40, ChangePointTest.Values).ShouldBeGreaterThan(0.3);
        double[] shifted = [.. series.Select(static (v, i) => i >= 20 ? v + 2 : v)];
        SegmentTest.PValue(shifted, 0, 20, 40, ChangePointTest.Ranks).ShouldBeLessThan(0.0001);
        SegmentTest.PValue(shifted, 0, 20, 40, ChangePointTest.Values).ShouldBeGreaterThan(0.05);
    }

    [Fact]
    public void PValue_WithNoSpread_IsOneForEqualLevelsAndZeroForDifferentOnes()
    {
        SegmentTest.PValue([3, 3, 3, 3], 0, 2, 4, ChangePointTest.Values).ShouldBe(1);
        SegmentTest.PValue([3, 3, 4, 4], 0, 2, 4, ChangePointTest.Values).ShouldBe(0);
    }

    [Fact]
    public void Median_OfOddAndEvenCounts()
    {
        SegmentTest.Median([5, 1, 3, 100], 0, 3).ShouldBe(3);
        SegmentTest.Median([5, 1, 3, 100], 0, 4).ShouldBe(4);
    }

    [Theory]
    [InlineData(0, 12, 2, 4)]
    [InlineData(1, 12, 2, 4)]
    [InlineData(4, 12, 2, 8)]
    [InlineData(0, 6, 4, -1)]
    public void BestSplit_IsTheStep(int from, int to, int minSegment, int expected)
    {
        double[] series = [1, 1.1, 0.9, 1, 5, 5.1, 4.9, 5, 6, 6.1, 5.9, 6];

        new EnergyStatistic(series, 0, series.Length).BestSplit(from, to, minSegment).ShouldBe(expected);
    }
}
