using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The real <c>picollo ab</c>'s short runs (issue 26), each of one project and at most two pairs: the working tree against
/// its own commit (one build for both sides, exit code 0), a base that does not build (both sides built side by side, its
/// error line, exit code 2, no worktree left), a filter that matches no perf test (one build, exit code 2). On a repository of their own, in
/// <see cref="AbShortRunsGroup"/>: they run beside <see cref="PicolloAbTests"/>' main run instead of after it, which left a
/// core idle for their 25 s (issue 24, "Suite under 5 minutes").
/// </summary>
[Collection(AbShortRunsGroup.Name)]
public sealed class PicolloAbShortRunTests(PicolloAbTests.Repository repository) : IClassFixture<PicolloAbTests.Repository>
{
    [Fact]
    public void Ab_TheWorkingTreeAgainstItsOwnCommit_ExitsZero()
    {
        string status = repository.Status();

        PicolloTool.Run run = repository.Ab("--base", "HEAD", "--project", "tests/Lib.PerfTests", "--filter", "Name=Same", "--min-pairs", "2", "--max-pairs", "2", "--threshold", "10");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain($"picollo ab: head the working tree (on {repository.Head[..10]}) against base HEAD ({repository.Head[..10]})", Case.Sensitive, run.Output);
        run.Output.ShouldContain("1 perf test(s) at the head, 1 at the base", Case.Sensitive, run.Output);

        // A clean working tree against its own commit: the same files, so one build serves both sides, and the report says
        // what its verdicts are then.
        run.StandardError.ShouldContain("Building tests/Lib.PerfTests/Lib.PerfTests.csproj once: the base and the head have the same sources", Case.Sensitive, run.Output);
        run.StandardError.ShouldNotContain("at the base…", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldContain("one build ran on both sides of every pair", Case.Sensitive, run.Output);

        // Two pairs: Student's t with one degree of freedom makes the 90 % equivalence interval ±6.3 standard errors wide, so
        // it lies inside ±10 % when the two pairs agree within about 1.5 %: unchanged (with the bound it proved) or
        // inconclusive, never regressed.
        string verdict = PicolloAbTests.Cells(PicolloAbTests.Row(run.StandardOutput, "WorkPerf.Same"))[1];
        (verdict.StartsWith("· unchanged within ±", StringComparison.Ordinal) || verdict == "⚠️ inconclusive").ShouldBeTrue(run.Output);
        run.StandardOutput.ShouldNotContain("perf test(s) at the head", Case.Sensitive, "progress is on standard error\n" + run.Output);
        PicolloAbTests.NoStackTrace(run.Output);
        repository.Status().ShouldBe(status, "the head was built from the working tree, its outputs elsewhere");
        repository.Worktrees().ShouldBe([repository.Root]);
    }

    [Fact]
    public void Ab_ABaseThatDoesNotBuild_ExitsTwo_WithItsErrorLine_AndRemovesTheWorktrees()
    {
        // The branch fix-build: a commit whose library does not compile (tagged broken), then its fix. With fix-build as the
        // head, the merge-base is the broken commit itself.
        string status = repository.Status();

        PicolloTool.Run run = repository.Ab("--base", "broken", "--head", "fix-build", "--project", "tests/Lib.NUnitPerfTests");

        run.ExitCode.ShouldBe(2, run.Output);
        string[] lines = run.StandardError.Split('\n');
        lines.ShouldContain($"picollo ab: The base (broken, merge-base {repository.Broken[..7]}) does not build: tests/Lib.NUnitPerfTests/Lib.NUnitPerfTests.csproj:", run.Output);
        lines.ShouldContain(l => l.StartsWith("  src/Lib/Work.cs(", StringComparison.Ordinal) && l.Contains("error CS0103: The name 'undefinedSteps' does not exist in the current context", StringComparison.Ordinal), run.Output);
        lines.Count(static l => l.Contains("CS0103", StringComparison.Ordinal)).ShouldBe(1, $"MSBuild's summary repeats the error; it is quoted once\n{run.Output}");
        lines.ShouldContain("Fix the build or pick another --base.", run.Output);

        // Standard error has the progress up to the failure ("Building … at the base…"), then the reason; standard output,
        // the report's stream, has nothing.
        run.StandardError.ShouldContain("Building tests/Lib.NUnitPerfTests/Lib.NUnitPerfTests.csproj at the base", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
        PicolloAbTests.NoStackTrace(run.Output);
        repository.Status().ShouldBe(status);
        repository.Worktrees().ShouldBe([repository.Root], "both worktrees (the head's too) were removed after the failure");
    }

    [Fact]
    public void Ab_AFilterThatMatchesNoPerfTest_ExitsTwo_NoPerfTests()
    {
        PicolloTool.Run run = repository.Ab("--base", "HEAD", "--project", "tests/Lib.NUnitPerfTests", "--filter", "Name=Nothing");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldEndWith("\npicollo ab: No perf tests in tests/Lib.NUnitPerfTests/Lib.NUnitPerfTests.csproj match --filter \"Name=Nothing\".\n", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
        PicolloAbTests.NoStackTrace(run.Output);
        repository.Worktrees().ShouldBe([repository.Root]);
    }
}
