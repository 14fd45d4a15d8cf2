using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Picollo.Baselines;
using Picollo.Reporting;
using Shouldly;
using Xunit;
using YamlDotNet.RepresentationModel;

namespace Picollo.Tests.Docs;

/// <summary>
/// The CI recipe (docs/CI.md) and the repository's own workflow (.github/workflows/ci.yml) are checked here, since no
/// GitHub runner executes them on the development machine: valid YAML, the triggers and jobs the recipe promises, every
/// step a <c>run</c> or a pinned <c>uses</c>, only Picollo variables that exist, and paths that exist. <see cref="ActionlintTests"/>
/// runs the same workflows through actionlint.
/// </summary>
public sealed partial class WorkflowTests
{
    private static readonly string[] s_knownVariables =
        [BaselineStoreOptions.UpdateVariable, PerfReportWriter.ResultsDirectoryVariable, Picollo.Cli.History.Store.HistoryStores.EnvironmentVariable];

    internal const string TemplateWorkflow = "templates/content/picollo-workflow/.github/workflows/perf-tests.yml";

    public static TheoryData<string> Workflows => ["docs/CI.md", ".github/workflows/ci.yml", TemplateWorkflow];

    [Theory]
    [MemberData(nameof(Workflows))]
    public void Workflow_HasPullRequestPushAndAcceptTriggers(string file)
    {
        YamlMappingNode root = Load(file);
        YamlMappingNode on = Map(root, "on");

        // The recipe runs nightly too, so main's history gains a run a day (picollo history, issue 52); the repository's own
        // workflow keeps no history.
        string[] triggers = file == ".github/workflows/ci.yml" ? ["pull_request", "push", "workflow_dispatch"] : ["pull_request", "push", "schedule", "workflow_dispatch"];
        on.Children.Keys.Select(static k => k.ToString()).ShouldBe(triggers, ignoreOrder: true);
        YamlMappingNode input = Map(Map(Map(on, "workflow_dispatch"), "inputs"), "accept-baselines");
        Scalar(input, "type").ShouldBe("boolean");
        Scalar(input, "default").ShouldBe("false");
        Scalar(Map(root, "permissions"), "contents").ShouldBe("read", "a perf run needs to read the repository, nothing more");
    }

    [Theory]
    [MemberData(nameof(Workflows))]
    public void EveryJob_RunsOnLinux_WithATimeout_AndStepsThatAreRunOrPinnedUses(string file)
    {
        YamlMappingNode jobs = Map(Load(file), "jobs");
        jobs.Children.Count.ShouldBe(file == ".github/workflows/ci.yml" ? 2 : 4, file);
        foreach ((YamlNode name, YamlNode node) in jobs.Children)
        {
            var job = (YamlMappingNode)node;
            Scalar(job, "runs-on").ShouldStartWith("ubuntu-", customMessage: $"{file}: {name}");
            int.Parse(Scalar(job, "timeout-minutes"), System.Globalization.CultureInfo.InvariantCulture).ShouldBeInRange(5, 90);
            var steps = (YamlSequenceNode)job.Children[new YamlScalarNode("steps")];
            steps.Children.Count.ShouldBeGreaterThan(3);
            foreach (YamlMappingNode step in steps.Children.Cast<YamlMappingNode>())
            {
                bool uses = step.Children.ContainsKey(new YamlScalarNode("uses")), run = step.Children.ContainsKey(new YamlScalarNode("run"));
                (uses ^ run).ShouldBeTrue($"{file}: {name}: a step has either 'uses' or 'run': {step}");
                if (uses)
                    PinnedAction().IsMatch(Scalar(step, "uses")).ShouldBeTrue($"{file}: {name}: '{Scalar(step, "uses")}' is not pinned to a major version");
            }

            // The Ubuntu images refuse perf events at perf_event_paranoid 4: each job lowers it before measuring (the history job
            // measures nothing: it adds the perf job's results to the store).
            if (name.ToString() != "history")
                Runs(job).First().ShouldContain("sysctl -w kernel.perf_event_paranoid=2", customMessage: $"{file}: {name}");
        }
    }

    [Theory]
    [MemberData(nameof(Workflows))]
    public void TheAcceptJob_RecordsInUpdateMode_AndUploadsTheBaselines(string file)
    {
        YamlMappingNode jobs = Map(Load(file), "jobs");
        YamlMappingNode accept = Map(jobs, "accept-baselines");
        Scalar(accept, "if").ShouldBe("${{ inputs.accept-baselines }}");
        var steps = ((YamlSequenceNode)accept.Children[new YamlScalarNode("steps")]).Children.Cast<YamlMappingNode>().ToList();
        YamlMappingNode record = steps.Single(static s => s.Children.ContainsKey(new YamlScalarNode("env")));
        Scalar(Map(record, "env"), BaselineStoreOptions.UpdateVariable).ShouldBe("1");
        Scalar(record, "run").ShouldContain("dotnet test");
        YamlMappingNode upload = steps.Last();
        Scalar(upload, "uses").ShouldStartWith("actions/upload-artifact@");
        Scalar(Map(upload, "with"), "path").ShouldEndWith("*.perf.json");

        // The other job leaves the baselines alone and uploads what a run writes for review.
        YamlMappingNode test = (YamlMappingNode)jobs.Children.Single(static j => j.Key.ToString() is not ("accept-baselines" or "ab" or "history")).Value;
        Scalar(test, "if").ShouldBe("${{ !inputs.accept-baselines }}");
        YamlMappingNode artifacts = ((YamlSequenceNode)test.Children[new YamlScalarNode("steps")]).Children.Cast<YamlMappingNode>().Last();
        Scalar(artifacts, "if").ShouldBe("${{ always() }}", "reports and received files matter most when the run failed");
        Scalar(Map(artifacts, "with"), "path").ShouldContain("*.received.perf.json");
    }

    [Fact]
    public void TheRecipesAbJob_RunsOnPullRequests_WithTheWholeHistory_AgainstTheBaseBranch()
    {
        // picollo ab checks out the merge-base of origin/<base> and the head: a shallow clone has neither (issue 26).
        YamlMappingNode ab = Map(Map(Load("docs/CI.md"), "jobs"), "ab");
        Scalar(ab, "if").ShouldContain("pull_request");
        var steps = ((YamlSequenceNode)ab.Children[new YamlScalarNode("steps")]).Children.Cast<YamlMappingNode>().ToList();
        YamlMappingNode checkout = steps.First(static s => s.Children.ContainsKey(new YamlScalarNode("uses")) && Scalar(s, "uses").StartsWith("actions/checkout@", StringComparison.Ordinal));
        Scalar(Map(checkout, "with"), "fetch-depth").ShouldBe("0");
        string run = Runs(ab).Single(static r => r.Contains("picollo ab", StringComparison.Ordinal));
        run.ShouldContain("--base origin/${{ github.base_ref }}");
        run.ShouldContain("--output ab.md");
        Runs(ab).ShouldContain(static r => r.Contains("gh pr comment", StringComparison.Ordinal) && r.Contains("--body-file ab.md", StringComparison.Ordinal));
    }

    [Fact]
    public void TheRecipesHistoryJob_AddsMainsRunsAfterThePerfJob_ThenReportsAndChecks()
    {
        // Only main's runs make its history, pull requests' never (issue 52); a failed perf job's results are added too.
        YamlMappingNode history = Map(Map(Load("docs/CI.md"), "jobs"), "history");
        Scalar(history, "needs").ShouldBe("perf");
        string condition = Scalar(history, "if");
        condition.ShouldContain("!cancelled()");
        condition.ShouldContain("github.event_name != 'pull_request'");
        condition.ShouldContain("github.ref == 'refs/heads/main'");
        var runs = Runs(history).ToList();
        runs.ShouldContain(static r => r.StartsWith("picollo history add perf-results --commit ${{ github.sha }}", StringComparison.Ordinal));
        runs.ShouldContain(static r => r.StartsWith("picollo history report", StringComparison.Ordinal) && r.Contains("--html", StringComparison.Ordinal));
        runs.Last().ShouldStartWith("picollo history check");
        Scalar(Map(history, "env"), Picollo.Cli.History.Store.HistoryStores.EnvironmentVariable).ShouldBe("picollo-history.db");
    }

    [Fact]
    public void TheTemplatesWorkflow_IsTheRecipe_WordForWord()
    {
        // dotnet new picollo-workflow writes the recipe users read in docs/CI.md: one text, so that neither drifts (issue 26).
        string recipe = DocsWorkflow().Match(Text("docs/CI.md")).Groups[1].Value;
        Text(TemplateWorkflow).ShouldBe(recipe, "copy the block between the workflow markers of docs/CI.md into " + TemplateWorkflow);
        recipe.ShouldContain("tests/MyLibrary.PerfTests", customMessage: "the template's perfProject parameter replaces this path");
    }

    [Theory]
    [MemberData(nameof(Workflows))]
    public void OnlyPicolloVariablesThatExist_AreSet(string file)
    {
        foreach (Match variable in PicolloVariable().Matches(Text(file)))
            s_knownVariables.ShouldContain(variable.Value, $"{file} names {variable.Value}, which Picollo does not read");
    }

    [Fact]
    public void TheRepositorysWorkflow_RunsTheReadmesCommands_OnPathsThatExist()
    {
        string workflow = Text(".github/workflows/ci.yml");
        string readme = Text("README.md");
        foreach (string path in new[] { ".ci/run", "global.json", "samples/TextKit.PerfTests", "samples/TextKit.NUnitPerfTests" })
        {
            workflow.ShouldContain(path);
            Path.Exists(Path.Combine(RepositoryRoot(), path)).ShouldBeTrue(path);
        }

        readme.ShouldContain("dotnet test samples/TextKit.PerfTests -c Release --logger \"console;verbosity=detailed\"");
    }

    private static IEnumerable<string> Runs(YamlMappingNode job) =>
        ((YamlSequenceNode)job.Children[new YamlScalarNode("steps")]).Children.Cast<YamlMappingNode>()
            .Where(static s => s.Children.ContainsKey(new YamlScalarNode("run"))).Select(static s => Scalar(s, "run"));

    /// <summary>The workflow's YAML: the file itself, or for docs/CI.md the recipe between its two markers.</summary>
    internal static string Yaml(string file)
    {
        string text = Text(file);
        if (!file.EndsWith(".md", StringComparison.Ordinal))
            return text;

        // The recipe sits between two markers in the docs, in one yaml code block.
        Match block = DocsWorkflow().Match(text);
        block.Success.ShouldBeTrue($"{file} has no workflow between <!-- workflow:begin --> and <!-- workflow:end -->");
        return block.Groups[1].Value;
    }

    private static YamlMappingNode Load(string file)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(Yaml(file)));
        return (YamlMappingNode)stream.Documents.ShouldHaveSingleItem().RootNode;
    }

    private static YamlMappingNode Map(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out YamlNode? child) ? (YamlMappingNode)child : throw new ShouldAssertException($"No '{key}' in {node.Start}");

    private static string Scalar(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out YamlNode? child) ? ((YamlScalarNode)child).Value ?? "" : throw new ShouldAssertException($"No '{key}' in {node.Start}");

    private static string Text(string file) => File.ReadAllText(Path.Combine(RepositoryRoot(), file));

    private static string RepositoryRoot([CallerFilePath] string here = "") => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", ".."));

    [GeneratedRegex(@"^[\w.-]+/[\w.-]+@v\d+$")]
    private static partial Regex PinnedAction();

    [GeneratedRegex(@"PICOLLO_[A-Z_]+")]
    private static partial Regex PicolloVariable();

    [GeneratedRegex(@"<!-- workflow:begin -->\s*```yaml\n(.*?)```\s*<!-- workflow:end -->", RegexOptions.Singleline)]
    private static partial Regex DocsWorkflow();
}
