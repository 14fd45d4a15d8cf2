namespace Picollo.Baselines.Storage;

/// <summary>Detects a CI build from environment variables, like Verify does: the generic <c>CI</c> and the vendors' own.</summary>
internal static class ContinuousIntegration
{
    // Vendor variables first: they are set to a vendor-specific value (often "True" or a URL), never "false".
    // Jenkins and TeamCity do not set CI at all; Azure Pipelines sets only TF_BUILD.
    private static readonly string[] s_vendorVariables =
    [
        "GITHUB_ACTIONS",
        "TF_BUILD",
        "GITLAB_CI",
        "JENKINS_URL",
        "BUILDKITE",
        "TEAMCITY_VERSION",
        "CIRCLECI",
        "TRAVIS",
        "APPVEYOR",
        "BITBUCKET_BUILD_NUMBER",
        "CODEBUILD_BUILD_ID",
        "DRONE",
        "BUILD_BUILDID",
    ];

    /// <summary>The variable that marks this as a CI build, or <see langword="null"/> when none does.</summary>
    /// <param name="getEnvironmentVariable">Reads a variable; <see cref="Environment.GetEnvironmentVariable(string)"/>
    /// when <see langword="null"/> (tests pass their own).</param>
    /// <returns>E.g. <c>GITHUB_ACTIONS</c> or <c>CI</c>; <see langword="null"/> locally.</returns>
    /// <remarks><c>CI</c> counts unless it is empty, <c>false</c> or <c>0</c>, so a developer can switch CI behaviour
    /// off for a local run.</remarks>
    public static string? Detect(Func<string, string?>? getEnvironmentVariable = null)
    {
        getEnvironmentVariable ??= Environment.GetEnvironmentVariable;
        string? ci = getEnvironmentVariable("CI");
        if (ci is not null)
        {
            string value = ci.Trim();
            return value.Length == 0 || value == "0" || value.Equals("false", StringComparison.OrdinalIgnoreCase) ? null : "CI";
        }

        return s_vendorVariables.FirstOrDefault(name => !string.IsNullOrWhiteSpace(getEnvironmentVariable(name)));
    }

    /// <summary><see langword="true"/> when <see cref="Detect"/> finds a CI variable.</summary>
    /// <param name="getEnvironmentVariable">Reads a variable; the process environment when <see langword="null"/>.</param>
    /// <returns>Whether this is a CI build.</returns>
    public static bool IsCI(Func<string, string?>? getEnvironmentVariable = null) => Detect(getEnvironmentVariable) is not null;
}
