using Picollo.Reporting;
using Picollo.Tests.Baselines;

namespace Picollo.Tests.Support;

/// <summary>
/// Environment seams for tests that run <c>ShouldNotRegress</c> or write reports: never the process environment, which
/// the developer's shell or CI sets and parallel tests share.
/// </summary>
internal static class TestEnvironment
{
    /// <summary>No update mode; no CI unless <paramref name="ci"/> (then <c>CI=true</c>); reports under <c>{temp}/results</c>; the step summary file when given.</summary>
    public static Func<string, string?> Local(TempDirectory temp, string? stepSummary = null, bool ci = false) => name => name switch
    {
        PerfReportWriter.ResultsDirectoryVariable => temp.Combine("results"),
        StepSummary.Variable => stepSummary,
        "CI" => ci ? "true" : null,
        _ => null,
    };
}
