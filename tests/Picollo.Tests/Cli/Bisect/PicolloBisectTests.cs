using System.Diagnostics;
using Picollo.Tests.Baselines;
using Picollo.Tests.Cli.Ab;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Bisect;

/// <summary>
/// The real <c>picollo bisect</c> (issue 52, "Proof": "on a synthetic repository in the tests") on a temporary git
/// repository: a library and an xunit perf-test project (<see cref="PicolloAbTests.Repository"/>'s), then six commits,
/// the second making <c>Work.Box</c> keep a boxed value (24 allocated bytes per call) and the third a library that does not
/// compile, fixed by the fourth. The tool measures main against the good tag, hunts the allocation, skips the commit that
/// does not build (its first error on the step's line), finds the second commit with its verdict table and exits 0, the
/// user's working tree, HEAD, branches and worktrees as they were. Bad refs and ranges exit 2 before anything is built.
/// </summary>
/// <remarks>
/// One repository and one search serve the class (a class fixture): the search's two first builds (good and main side by
/// side), three steps of one build and one process pair each (the allocated bytes are exact), about a minute and a half on
/// a 2-core machine beside the other test classes. The bad inputs read git only. Six commits, not more: each step is a
/// build and a process pair (about 20 s), and these six already take every kind of step (skipped, bad, good) in a search
/// whose middle commit does not build; the search's arithmetic over longer ranges is BisectSearchTests'.
/// </remarks>
[Collection(BisectPipelineGroup.Name)]
public sealed class PicolloBisectTests(PicolloBisectTests.Repository repository) : IClassFixture<PicolloBisectTests.Repository>
{
    private static readonly TimeSpan s_toolTimeout = TimeSpan.FromMinutes(5);

    [Fact]
    public void Bisect_FindsTheCommitThatAddedAnAllocation_SkippingOneThatDoesNotBuild_ExitsZero_AndLeavesTheRepositoryAsItWas()
    {
        Repository.MainRun main = repository.Main;
        PicolloTool.Run run = main.Run;

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardOutput.ShouldStartWith(
            $"first bad commit: {repository.Commits[1]} a box per call\n", Case.Sensitive, run.Output);
        string[] alloc = PicolloAbTests.Cells(PicolloAbTests.Row(run.StandardOutput, "WorkPerf.Alloc"));
        alloc[1].ShouldBe("❌ regressed", run.Output);
        alloc[6].ShouldContain("allocated-bytes 0 → 24 bytes/op (regressed)", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldContain("## picollo bisect: a box per call (", Case.Sensitive, run.Output);

        // The range, the change hunted (an exact counter: one pair a step), and each step's line: the middle commit does not
        // build and is skipped, its older neighbour is bad, then the one before that is good: the second commit is the first bad.
        string progress = run.StandardError;
        progress.ShouldContain("picollo bisect: 6 commit(s) after good ", Case.Sensitive, run.Output);
        progress.ShouldContain(
            "Hunting WorkPerf.Alloc: allocated-bytes regressed (0 → 24 bytes/op): an exact counter, so one process pair per step decides.",
            Case.Sensitive, run.Output);
        progress.ShouldContain($"{repository.Commits[2][..10]} a library that does not compile: skipped — does not build: src/Lib/Work.cs(",
            Case.Sensitive, run.Output);
        progress.ShouldContain("error CS0103: The name 'undefinedSteps' does not exist", Case.Sensitive, run.Output);
        progress.ShouldContain($"{repository.Commits[0][..10]} a comment: good — allocated-bytes 0 → 0 bytes/op", Case.Sensitive, run.Output);
        progress.ShouldContain($"{repository.Commits[1][..10]} a box per call: bad — allocated-bytes 0 → 24 bytes/op", Case.Sensitive, run.Output);
        progress.ShouldContain("3 step(s) (1 skipped) after the first measurement", Case.Sensitive, run.Output);
        PicolloAbTests.NoStackTrace(run.Output);

        main.After.ShouldBe(main.Before, "the working tree, index, HEAD, branches and worktrees as they were");
    }

    [Theory]
    [InlineData("nosuchref", "main", "--good 'nosuchref' is not a commit in the repository at {root}. Check the spelling")]
    [InlineData("good", "nosuchref", "--bad 'nosuchref' is not a commit in the repository at {root}. Check the spelling")]
    [InlineData("main", "main", "--good main and --bad main are the same commit (")]
    [InlineData("main", "good", "--good main comes after --bad good in the history: the good commit must be an ancestor of the bad one. Swap them")]
    [InlineData("side", "main", "--good side (")]
    public void Bisect_BadRefsOrRanges_ExitTwo_NameTheRefAndTheFix_AndBuildNothing(string good, string bad, string expected)
    {
        string before = repository.State();

        PicolloTool.Run run = repository.Bisect("--good", good, "--bad", bad, "--test", "WorkPerf.Alloc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith("picollo bisect: " + expected.Replace("{root}", repository.Root, StringComparison.Ordinal), Case.Sensitive, run.Output);
        run.StandardError.ShouldNotContain("Building", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
        PicolloAbTests.NoStackTrace(run.Output);
        repository.State().ShouldBe(before);
    }

    [Fact]
    public void Bisect_FromABranchThatForked_SaysItIsNotAnAncestor_AndNamesTheForkPoint()
    {
        PicolloTool.Run run = repository.Bisect("--good", "side", "--bad", "main", "--test", "WorkPerf.Alloc");

        run.StandardError.ShouldContain("is not an ancestor of --bad main (", Case.Sensitive, run.Output);
        run.StandardError.ShouldContain("git merge-base side main names the fork point", Case.Sensitive, run.Output);
    }

    /// <summary>
    /// The temporary repository: the tag <c>good</c>, then six commits on <c>main</c> (<see cref="Commits"/>, oldest first),
    /// and a branch <c>side</c> that forked from the first with a commit of its own.
    /// </summary>
    public sealed class Repository : IDisposable
    {
        private readonly TempDirectory _dir = new();
        private readonly Lazy<MainRun> _main;

        public Repository()
        {
            Directory.CreateDirectory(Root);
            Git("init", "--quiet", "--initial-branch=main");
            Git("config", "user.email", "bisect@example.com");
            Git("config", "user.name", "bisect");
            Git("config", "commit.gpgsign", "false");
            Write("nuget.config", PicolloAbTests.Repository.NuGetConfig());
            Write("Directory.Packages.props", PicolloAbTests.Repository.PackageVersions());
            Write("src/Lib/Lib.csproj", PicolloAbTests.Repository.LibraryProject);
            Write("src/Lib/Work.cs", WorkSource(box: false, broken: false, comment: ""));
            Write("tests/Lib.PerfTests/Lib.PerfTests.csproj", PicolloAbTests.Repository.PerfTestProject("Xunit"));
            Write("tests/Lib.PerfTests/WorkPerf.cs", Tests);
            Write("README.md", "# Lib");
            _ = Commit("the library and its perf tests");
            Git("tag", "good");

            // The search's first step is the middle commit (the third), which does not build: skipped; then its older
            // neighbour, the box (bad); then the comment before it (good).
            var commits = new List<string> { Change("src/Lib/Work.cs", WorkSource(box: false, broken: false, comment: "// Steps."), "a comment") };
            Git("branch", "side");
            commits.Add(Change("src/Lib/Work.cs", WorkSource(box: true, broken: false, comment: "// Steps."), "a box per call"));
            commits.Add(Change("src/Lib/Work.cs", WorkSource(box: true, broken: true, comment: "// Steps."), "a library that does not compile"));
            commits.Add(Change("src/Lib/Work.cs", WorkSource(box: true, broken: false, comment: "// The steps."), "the library compiles again"));
            commits.Add(Change("README.md", "# Lib\n\nA small library, boxed.", "a readme"));
            commits.Add(Change("README.md", "# Lib\n\nA small library, boxed, again.", "the readme again"));
            Commits = commits;

            Git("checkout", "--quiet", "side");
            _ = Change("README.md", "# Lib on a side branch", "a side branch");
            Git("checkout", "--quiet", "main");

            _main = new Lazy<MainRun>(RunMain, LazyThreadSafetyMode.ExecutionAndPublication);
        }

        public string Root => _dir.Combine("repo");

        /// <summary>The six commits after <c>good</c> on main, oldest first.</summary>
        public IReadOnlyList<string> Commits { get; }

        /// <summary>The search, once: <c>bisect --good good --bad main --test WorkPerf.Alloc --min-pairs 2 --max-pairs 2</c>.</summary>
        internal MainRun Main => _main.Value;

        internal PicolloTool.Run Bisect(params string[] arguments)
        {
            var clock = Stopwatch.StartNew();
            PicolloTool.Run run = PicolloTool.Invoke(Root, null, s_toolTimeout, PicolloAbTests.Repository.ToolEnvironment, ["bisect", .. arguments]);
            TestContext.Current.TestOutputHelper?.WriteLine($"picollo bisect {string.Join(' ', arguments)}: exit code {run.ExitCode} after {clock.Elapsed.TotalSeconds:0} s\n{run.Output}");
            return run;
        }

        /// <summary>What the tool must leave as it was: the status (ignored files too), HEAD, the branches and tags, the worktrees.</summary>
        public string State() =>
            Git("status", "--porcelain", "--ignored") + Git("rev-parse", "HEAD") + Git("symbolic-ref", "HEAD")
                + Git("for-each-ref", "--format=%(refname) %(objectname)") + Git("worktree", "list", "--porcelain");

        public void Dispose()
        {
            PicolloAbTests.Repository.ShutDownCompilerServer();
            _dir.Dispose();
        }

        private MainRun RunMain()
        {
            string before = State();
            PicolloTool.Run run = Bisect("--good", "good", "--bad", "main", "--test", "WorkPerf.Alloc", "--min-pairs", "2", "--max-pairs", "2");
            return new MainRun(run, before, State());
        }

        // Box keeps the boxed value in a static field (so the JIT cannot put it on the stack) once box is set: 24 bytes a call.
        private static string WorkSource(bool box, bool broken, string comment) => $$"""
            namespace Lib;

            public static class Work
            {
                public static object? Last { get; private set; }

                {{comment}}
                public static ulong Chain(int n)
                {
                    int steps = {{(broken ? "undefinedSteps" : "n")}};
                    ulong x = 1;
                    for (int k = 0; k < steps; k++)
                        x = (x * 6364136223846793005UL) + 1442695040888963407UL;
                    return x;
                }

                public static int Box(int i)
                {
            {{(box ? "        object boxed = i;\n        Last = boxed;\n        return System.HashCode.Combine(boxed);" : "        return System.HashCode.Combine(i);")}}
                }
            }
            """;

        private const string Tests = """
            using Lib;
            using Picollo.Testing.Xunit;

            namespace Lib.PerfTests;

            public class WorkPerf
            {
                private int _next;

                [PerfFact]
                public int Alloc() => Work.Box(_next++);

                [PerfFact]
                public ulong Chain() => Work.Chain(500);
            }
            """;

        private string Change(string path, string text, string message)
        {
            Write(path, text);
            return Commit(message);
        }

        private void Write(string path, string text)
        {
            string file = Path.Combine([Root, .. path.Split('/')]);
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            File.WriteAllText(file, text.Replace("\r\n", "\n", StringComparison.Ordinal) + "\n");
        }

        private string Commit(string message)
        {
            Git("add", "--all");
            Git("commit", "--quiet", "-m", message);
            return Git("rev-parse", "HEAD").Trim();
        }

        private string Git(params string[] arguments)
        {
            var start = new ProcessStartInfo("git") { WorkingDirectory = Root, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in arguments)
                start.ArgumentList.Add(argument);
            using Process git = Process.Start(start)!;
            Task<string> error = git.StandardError.ReadToEndAsync();
            string output = git.StandardOutput.ReadToEnd();
            git.WaitForExit();
            return git.ExitCode == 0 ? output : throw new InvalidOperationException($"git {string.Join(' ', arguments)} exited with {git.ExitCode}: {error.Result}");
        }

        /// <summary>The search's output and the repository's state around it.</summary>
        internal sealed record MainRun(PicolloTool.Run Run, string Before, string After);
    }
}
