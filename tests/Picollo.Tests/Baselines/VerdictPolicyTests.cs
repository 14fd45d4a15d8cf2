using Picollo.Baselines;
using Picollo.Counters;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

public sealed class VerdictPolicyTests
{
    [Fact]
    public void Defaults_ByKind()
    {
        VerdictPolicy.Default.GetRule("allocated-bytes", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Exact);
        VerdictPolicy.Default.GetRule("tsc", CounterKind.Tsc).ShouldBe(CounterVerdictRule.Time);
        VerdictPolicy.Default.GetRule("task-clock", CounterKind.Software).ShouldBe(CounterVerdictRule.Time);
        VerdictPolicy.Default.GetRule("instructions", CounterKind.Hardware).ShouldBe(CounterVerdictRule.Instructions);
        VerdictPolicy.Default.GetRule("page-faults", CounterKind.Software).ShouldBe(CounterVerdictRule.Other);
    }

    [Fact]
    public void WithThresholds_ReplacesEveryStatisticalRule_IncludingOverrides_ButNotExactOnes()
    {
        var custom = new CounterVerdictRule(VerdictMode.Statistical, BaselineStatistic.P99, 2.0, 0.5);
        VerdictPolicy policy = new VerdictPolicy(new Dictionary<string, CounterVerdictRule> { ["cache-misses"] = custom }).WithThresholds(maxCohensD: 0.3);

        policy.GetRule("tsc", CounterKind.Tsc).ShouldBe(CounterVerdictRule.Time with { MinCohensD = 0.3 });
        policy.GetRule("cache-misses", CounterKind.Hardware).ShouldBe(custom with { MinCohensD = 0.3 });
        policy.GetRule("allocated-bytes", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Exact);
    }

    [Fact]
    public void WithThresholds_Chains_LaterValuesWin_NullKeepsEarlier()
    {
        VerdictPolicy policy = VerdictPolicy.Default.WithThresholds(maxCohensD: 0.3, maxChange: 0.2).WithThresholds(maxChange: 0.05);

        CounterVerdictRule rule = policy.GetRule("task-clock", CounterKind.Software);
        rule.MinCohensD.ShouldBe(0.3);
        rule.MinRelativeChange.ShouldBe(0.05);
        VerdictPolicy.Default.GetRule("task-clock", CounterKind.Software).ShouldBe(CounterVerdictRule.Time);
    }

    [Theory]
    [InlineData(-0.1, null)]
    [InlineData(double.NaN, null)]
    [InlineData(double.PositiveInfinity, null)]
    [InlineData(null, -0.01)]
    [InlineData(null, double.NaN)]
    public void WithThresholds_RejectsNegativeOrNonFinite(double? maxCohensD, double? maxChange)
    {
        var error = Should.Throw<ArgumentOutOfRangeException>(() => VerdictPolicy.Default.WithThresholds(maxCohensD, maxChange));

        error.ParamName.ShouldBe(maxCohensD is null ? "maxChange" : "maxCohensD");
    }
}
