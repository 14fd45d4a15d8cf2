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
}
