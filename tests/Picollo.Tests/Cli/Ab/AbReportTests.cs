using Picollo.Cli.Ab;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>picollo ab's report cells (issue 26): an interval's bound as a change in percent, readable however wide.</summary>
public sealed class AbReportTests
{
    [Theory]
    [InlineData(1.213, "+21.3%")]
    [InlineData(0.985, "-1.5%")]
    [InlineData(1.0, "0.0%")]
    [InlineData(1e-20, "-100.0%")]
    [InlineData(10.0, "+900.0%")]
    [InlineData(1.04e20, "> +1,000%")]
    public void Bound_IsAChangeInPercent_AndBeyondAThousandPercentSaysSo(double ratio, string expected) =>
        AbReport.Bound(ratio).ShouldBe(expected);

    [Fact]
    public void UnchangedAtTheCap_SaysTheRunsIntervalAndItsBound_NotTheEquivalenceIntervals()
    {
        // +3.6 % of work in bench ab, after the most pairs: the 90 % interval (+0.3 … +3.3 %) reaches past ±3 %, the run's 99 %
        // one (-0.9 … +4.6 %) lies inside twice that. What was proved is the run's bound: ±4.6 %, not ±3.3 %.
        var time = new AbTimeEstimate("tsc", [1, 1, 1], Math.Sqrt(0.991 * 1.046), 0.991, 1.046, 0.99, 1)
        {
            EquivalenceLow = 1.003,
            EquivalenceHigh = 1.033,
        };

        AbReport.Describe(AbVerdict.Unchanged, time, 0.03).ShouldBe("unchanged within ±4.6%");
        AbReport.Interval(AbVerdict.Unchanged, time, 0.03).ShouldBe("-0.9% … +4.6%");
    }

    [Fact]
    public void UnchangedInsideTheThreshold_SaysTheEquivalenceIntervalAndItsBound()
    {
        var time = new AbTimeEstimate("tsc", [1, 1, 1], 1.0, 0.965, 1.025, 0.99, 1)
        {
            EquivalenceLow = 0.985,
            EquivalenceHigh = 1.012,
        };

        AbReport.Describe(AbVerdict.Unchanged, time, 0.03).ShouldBe("unchanged within ±1.5%");
        AbReport.Interval(AbVerdict.Unchanged, time, 0.03).ShouldStartWith("-1.5% … +1.2% (");
    }
}
