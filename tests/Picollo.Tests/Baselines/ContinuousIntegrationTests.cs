using Picollo.Baselines;
using Picollo.Baselines.Storage;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

public sealed class ContinuousIntegrationTests
{
    private static Func<string, string?> Env(params (string Name, string Value)[] variables) =>
        name => variables.FirstOrDefault(v => v.Name == name).Value;

    [Theory]
    [InlineData("CI", "true", "CI")]
    [InlineData("CI", "1", "CI")]
    [InlineData("GITHUB_ACTIONS", "true", "GITHUB_ACTIONS")]
    [InlineData("TF_BUILD", "True", "TF_BUILD")]
    [InlineData("GITLAB_CI", "true", "GITLAB_CI")]
    [InlineData("JENKINS_URL", "http://jenkins/", "JENKINS_URL")]
    [InlineData("BUILDKITE", "true", "BUILDKITE")]
    [InlineData("TEAMCITY_VERSION", "2024.1", "TEAMCITY_VERSION")]
    public void CiVariable_IsDetected(string name, string value, string expected) =>
        ContinuousIntegration.Detect(Env((name, value))).ShouldBe(expected);

    [Theory]
    [InlineData("false")]
    [InlineData("0")]
    [InlineData("")]
    public void CiSwitchedOff_WinsOverVendorVariables(string value) =>
        ContinuousIntegration.IsCI(Env(("CI", value), ("GITHUB_ACTIONS", "true"))).ShouldBeFalse();

    [Fact]
    public void NoVariables_IsLocal() => ContinuousIntegration.Detect(Env()).ShouldBeNull();
}
