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
        VerdictPolicy.Default.GetRule("page-faults", CounterKind.Software).ShouldBe(CounterVerdictRule.Occasional);
        VerdictPolicy.Default.GetRule("gen0-collections", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Occasional);
        VerdictPolicy.Default.GetRule("cache-misses", CounterKind.Hardware).ShouldBe(CounterVerdictRule.Other);
    }

    [Fact]
    public void Time_JudgesTheFloorAtEightPercent_AndTwoUnitsPerOperation()
    {
        CounterVerdictRule.Time.ShouldBe(new CounterVerdictRule(VerdictMode.Statistical, BaselineStatistic.P10, 0.08, 0.95, 0.021) { MinAbsoluteChange = 2 });
    }

    [Fact]
    public void WithThresholds_ReplacesEveryStatisticalRule_IncludingOverrides_ButNotExactOnes()
    {
        var custom = new CounterVerdictRule(VerdictMode.Statistical, BaselineStatistic.P99, 0.5, 0.99, 0.05);
        VerdictPolicy policy = new VerdictPolicy(new Dictionary<string, CounterVerdictRule> { ["cache-misses"] = custom }).WithThresholds(maxChange: 0.03);

        policy.GetRule("tsc", CounterKind.Tsc).ShouldBe(CounterVerdictRule.Time with { MinRelativeChange = 0.03 });
        policy.GetRule("cache-misses", CounterKind.Hardware).ShouldBe(custom with { MinRelativeChange = 0.03 });
        policy.GetRule("allocated-bytes", CounterKind.Runtime).ShouldBe(CounterVerdictRule.Exact);
    }

    [Fact]
    public void WithThresholds_Chains_LaterValuesWin_NullKeepsEarlier()
    {
        VerdictPolicy policy = VerdictPolicy.Default.WithThresholds(maxChange: 0.2, confidence: 0.99).WithThresholds(maxChange: 0.05);

        CounterVerdictRule rule = policy.GetRule("task-clock", CounterKind.Software);
        rule.Confidence.ShouldBe(0.99);
        rule.MinRelativeChange.ShouldBe(0.05);
        VerdictPolicy.Default.GetRule("task-clock", CounterKind.Software).ShouldBe(CounterVerdictRule.Time);
    }

    [Theory]
    [InlineData(-0.01, null)]
    [InlineData(double.NaN, null)]
    [InlineData(double.PositiveInfinity, null)]
    [InlineData(null, 0.4)]
    [InlineData(null, 1.0)]
    [InlineData(null, double.NaN)]
    public void WithThresholds_RejectsValuesOutOfRange(double? maxChange, double? confidence)
    {
        var error = Should.Throw<ArgumentOutOfRangeException>(() => VerdictPolicy.Default.WithThresholds(maxChange, confidence));

        error.ParamName.ShouldBe(maxChange is null ? "confidence" : "maxChange");
    }
}
