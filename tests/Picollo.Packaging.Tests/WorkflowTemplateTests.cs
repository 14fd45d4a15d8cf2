using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// <c>dotnet new picollo-workflow</c> from the packed templates: the recipe of docs/CI.md (checked word for word against
/// the docs by the unit tests) written where GitHub reads it, with the user's project path in every job (issue 26).
/// </summary>
public sealed class WorkflowTemplateTests(PackageFeed feed)
{
    [Fact]
    public async Task TheWorkflow_LandsUnderDotGithub_WithTheProjectPathInEveryJob()
    {
        string repository = Path.Combine(feed.Root, "workflow-repository");

        DotNet.Run run = await feed.NewItemAsync("picollo-workflow", repository, "--perf-project", "tests/Acme.PerfTests");

        string workflow = Path.Combine(repository, ".github", "workflows", "perf-tests.yml");
        File.Exists(workflow).ShouldBeTrue(run.Output);
        Directory.GetFiles(repository, "*", SearchOption.AllDirectories).ShouldBe([workflow], "an item template writes only the workflow");
        string text = await File.ReadAllTextAsync(workflow, TestContext.Current.CancellationToken);
        text.ShouldNotContain("MyLibrary");
        text.ShouldContain("picollo ab --base origin/${{ github.base_ref }} --project tests/Acme.PerfTests --output ab.md");
        text.ShouldContain("dotnet build tests/Acme.PerfTests -c Release");
        text.ShouldContain("PICOLLO_UPDATE_BASELINES: \"1\"");
        System.Text.RegularExpressions.Regex.Count(text, "tests/Acme\\.PerfTests").ShouldBe(4, "build, test, ab and the accept job");
    }
}
