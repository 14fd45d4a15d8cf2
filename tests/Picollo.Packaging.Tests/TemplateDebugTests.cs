using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// A project created from each template and run with plain <c>dotnet test</c> in Debug: a build warning and every perf test
/// skipped with the reason (issue 13). Not in <see cref="TemplateRunsGroup"/>: nothing is measured, so it runs with the
/// other tests, before the Release runs.
/// </summary>
public abstract class TemplateDebugTests(PackageFeed feed, string template)
{
    [Fact]
    public async Task Debug_WarnsAtBuild_AndSkipsEveryPerfTestWithTheReason()
    {
        string project = await feed.CreateProjectAsync(template, "Acme.DebugPerfTests");

        (DotNet.Run run, IReadOnlyList<TrxResult> results) = await feed.TestAsync(project, "Debug");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain("warning PICOLLO001: Acme.DebugPerfTests is built without optimizations (Configuration=Debug): its perf tests will be skipped", customMessage: run.Output);
        results.Count.ShouldBe(2, run.Output);
        foreach (TrxResult result in results)
        {
            result.Outcome.ShouldBe("NotExecuted", run.Output);
        }

        run.Output.ShouldContain("built without optimizations (Debug configuration): its numbers are not what Release code does. Run it in Release", customMessage: run.Output);
        Directory.GetFiles(project, "*.perf.json").ShouldBeEmpty("nothing is recorded from unoptimized code");
    }
}

/// <summary>The <c>picollo-xunit</c> template in Debug.</summary>
public sealed class XunitTemplateDebugTests(PackageFeed feed) : TemplateDebugTests(feed, "picollo-xunit");

/// <summary>The <c>picollo-nunit</c> template in Debug.</summary>
public sealed class NUnitTemplateDebugTests(PackageFeed feed) : TemplateDebugTests(feed, "picollo-nunit");
