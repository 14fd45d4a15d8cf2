using System.Text;
using Picollo.Cli.Ab;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// What <c>picollo ab</c> says when it cannot run or a pair goes wrong (issue 28): every kind <see cref="AbMessages"/>
/// builds, in situations a pull request meets, in the golden file <c>Approved/AbMessages.approved.md</c>.
/// </summary>
public sealed class AbMessagesTests
{
    private const string Repo = "/home/runner/work/shop/shop";
    private const string Project = "tests/Shop.PerfTests/Shop.PerfTests.csproj";
    private const string Base = "base (origin/main, merge-base 1a2b3c4)";
    private const string Head = "head (working tree, 9f8e7d6)";

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Options(text);
        Projects(text);
        Builds(text);
        Filters(text);
        Revisions(text);
        Workers(text);
        Run(text);

        Approvals.Verify(text.ToString(), "AbMessages");
    }

    private static void Options(StringBuilder text)
    {
        Case(text, nameof(AbMessages.ThresholdNotAPercentage), AbMessages.ThresholdNotAPercentage(150));
        Case(text, nameof(AbMessages.ConfidenceNotAPercentage), AbMessages.ConfidenceNotAPercentage(40));
        Case(text, nameof(AbMessages.PairsOutOfRange), AbMessages.PairsOutOfRange(5, 4));
        Case(text, nameof(AbMessages.BudgetsNotPositive), AbMessages.BudgetsNotPositive());
        Case(text, nameof(AbMessages.UnknownFormat), AbMessages.UnknownFormat("pdf"));
        Case(text, nameof(AbMessages.StepSummaryNotWritten),
            AbMessages.StepSummaryNotWritten("/home/runner/work/_temp/_runner_file_commands/step_summary_1", "Permission denied"));
    }

    private static void Projects(StringBuilder text)
    {
        string[] projects = [Project, "tests/Shop.NUnitPerfTests/Shop.NUnitPerfTests.csproj"];
        Case(text, nameof(AbMessages.NoPerfTests), AbMessages.NoPerfTests(projects));
        Case(text, nameof(AbMessages.NoPerfTestMatchesFilter), AbMessages.NoPerfTestMatchesFilter(projects, "FullyQualifiedName~Parser"));
        Case(text, nameof(AbMessages.NoPerfTestProjects), AbMessages.NoPerfTestProjects(Repo));
        Case(text, nameof(AbMessages.BothFrameworks), AbMessages.BothFrameworks(Project));
        Case(text, "NotAPerfTestProject: it references neither adapter", AbMessages.NotAPerfTestProject(Project, adapters: 0));
        Case(text, "NotAPerfTestProject: it references both adapters", AbMessages.NotAPerfTestProject(Project, adapters: 2));
    }

    private static void Builds(StringBuilder text)
    {
        Case(text, "ProjectMissing: at the base (a project new in the pull request)", AbMessages.ProjectMissing(Base, Project, isBase: true));
        Case(text, "ProjectMissing: at the head", AbMessages.ProjectMissing("head (feature/cache, 9f8e7d6)", Project, isBase: false));
        Case(text, nameof(AbMessages.AssemblyPathUnknown), AbMessages.AssemblyPathUnknown(
            Head, Project, "MSBUILD : error MSB1009: Project file does not exist."));
        Case(text, nameof(AbMessages.SeveralTargetFrameworks), AbMessages.SeveralTargetFrameworks(Project, "net8.0;net10.0"));
        Case(text, nameof(AbMessages.NoTargetPath), AbMessages.NoTargetPath("build/Shop.Build.proj"));
        Case(text, nameof(AbMessages.AssemblyNotAtTargetPath), AbMessages.AssemblyNotAtTargetPath(
            Base, Project, "/tmp/picollo-ab-run-x1/artifacts/base/bin/Shop.PerfTests/release/Shop.PerfTests.dll"));
        Case(text, nameof(AbMessages.NotATestProgram), AbMessages.NotATestProgram("src/Shop/Shop.csproj", "Shop.dll"));
        Case(text, nameof(AbMessages.DotnetNotStarted), AbMessages.DotnetNotStarted("/usr/share/dotnet/dotnet", "No such file or directory"));
    }

    private static void Filters(StringBuilder text)
    {
        Case(text, nameof(AbMessages.FilterUnopenedParenthesis), AbMessages.FilterUnopenedParenthesis("Name=Count)|Name=Chain", 11));
        Case(text, nameof(AbMessages.FilterUnclosedParenthesis), AbMessages.FilterUnclosedParenthesis("(Name=Count|Name=Chain"));
        Case(text, nameof(AbMessages.FilterEmptyCondition), AbMessages.FilterEmptyCondition("Name=Count||Name=Chain", 12));
        Case(text, nameof(AbMessages.FilterPropertyNotSupported), AbMessages.FilterPropertyNotSupported("Category"));
    }

    private static void Revisions(StringBuilder text)
    {
        Case(text, nameof(AbMessages.NotAGitRepository), AbMessages.NotAGitRepository("/home/dev/Downloads"));
        Case(text, nameof(AbMessages.NoCommitYet), AbMessages.NoCommitYet("/home/dev/new-shop"));
        Case(text, "RefNotACommit: in a shallow clone (actions/checkout's default)",
            AbMessages.RefNotACommit("base", "origin/main", Repo, shallow: true, "git fetch origin main"));
        Case(text, "RefNotACommit: a misspelled branch in a full clone",
            AbMessages.RefNotACommit("base", "origin/mian", Repo, shallow: false, "git fetch origin mian"));
        Case(text, "NoCommonAncestor: unrelated histories", AbMessages.NoCommonAncestor("origin/gh-pages", "5e6f7a8", shallow: false));
        Case(text, "NoCommonAncestor: a shallow clone that lacks it", AbMessages.NoCommonAncestor("origin/main", "1a2b3c4", shallow: true));
        Case(text, nameof(AbMessages.SameSources), AbMessages.SameSources());
        Case(text, nameof(AbMessages.SubmodulesNotCheckedOut), AbMessages.SubmodulesNotCheckedOut(
            "base", "origin/main", "1a2b3c4", "/tmp/picollo-ab-run-x1/worktrees/base",
            "fatal: could not read Username for 'https://github.com': terminal prompts disabled"));
        Case(text, nameof(AbMessages.GitNotStarted), AbMessages.GitNotStarted("No such file or directory"));
        Case(text, nameof(AbMessages.GitTimedOut), AbMessages.GitTimedOut(
            ["worktree", "add", "--detach", "--quiet", "/tmp/picollo-ab-run-x1/worktrees/base", "1a2b3c4"], TimeSpan.FromMinutes(10), Repo));
    }

    private static void Workers(StringBuilder text)
    {
        TimeSpan timeout = TimeSpan.FromSeconds(120);
        Case(text, nameof(AbMessages.WorkerDidNotExit), AbMessages.WorkerDidNotExit("head", timeout));
        Case(text, "WorkerExitedMidMeasurement: with its last output", AbMessages.WorkerExitedMidMeasurement(
            "head", 134, "Process terminated. | System.InvalidOperationException: Collection was modified"));
        Case(text, "WorkerExitedMidMeasurement: silent", AbMessages.WorkerExitedMidMeasurement("base", 137, ""));
        Case(text, "WorkerExitedWithoutMeasuring: a test that failed before measuring", AbMessages.WorkerExitedWithoutMeasuring(
            "head", 1, "[FAIL] WordsPerf.Count | Assert.Equal() Failure: Values differ"));
        Case(text, "WorkerExitedWithoutMeasuring: a skipped test", AbMessages.WorkerExitedWithoutMeasuring("base", 0, ""));
        Case(text, nameof(AbMessages.WorkerSkipped), AbMessages.WorkerSkipped(
            "head", "WordsPerf.Count", "The perf test WordsPerf.Count runs code instrumented for code coverage: coverlet rewrote TextKit.dll "
                + "to count every line and branch it runs (Coverlet.Core.Instrumentation.Tracker.TextKit_6a6bd7e7), so its numbers are "
                + "not what the shipped code does. Run perf tests without coverage, or leave them out of the coverage run: "
                + "`dotnet test --collect:\"XPlat Code Coverage\" --filter Category!=Performance`."));
        Case(text, nameof(AbMessages.WorkerSilent), AbMessages.WorkerSilent("base", timeout));
        Case(text, nameof(AbMessages.WorkerSaidUnexpected), AbMessages.WorkerSaidUnexpected("head", "READY 3"));
        Case(text, "WorkerDidNotAnswer: the head worker", AbMessages.WorkerDidNotAnswer("head", 120));
        Case(text, "WorkerDidNotAnswer: no side known yet", AbMessages.WorkerDidNotAnswer(null, null));
    }

    private static void Run(StringBuilder text)
    {
        Case(text, nameof(AbMessages.TimeBudgetSpent), AbMessages.TimeBudgetSpent(TimeSpan.FromMinutes(20)));
        Case(text, nameof(AbMessages.PairSetAside), AbMessages.PairSetAside(
            "base", "Warmup stopped at 1,500 ms with the body's code still tier-0."));
        Case(text, nameof(AbMessages.PairsSetAside), AbMessages.PairsSetAside(2, 10));
        Case(text, nameof(AbMessages.RelativeClaimsHeld), AbMessages.RelativeClaimsHeld());
        Case(text, nameof(AbMessages.NothingMeasured), AbMessages.NothingMeasured());
        Case(text, nameof(AbMessages.NoTimeToCompare), AbMessages.NoTimeToCompare());
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
