using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Xml.Linq;
using Picollo.Tests.Baselines;
using Picollo.Tests.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The real <c>picollo ab</c> (issue 26, "Proof", first bullet) on a temporary git repository: a small library, an
/// xunit.v3 and an NUnit perf-test project, and two commits, the head's making one method 30 % more work and another
/// allocate once per call while a third stays as it was. The tool builds both commits with the SDK, runs every perf test
/// side by side in process pairs and says: the longer chain regressed (in both frameworks), the allocation regressed by
/// its exact counter (0 → 24 bytes per operation), the unchanged method unchanged, exit code 1, regressions first in the
/// markdown, the user's working tree and worktrees as they were. A worker that exits in the base leaves its test "not
/// judged" and the others judged. Bad inputs (not a repository, an unknown ref, a bad threshold, an output folder that does
/// not exist) exit 2 with a sentence and no stack trace. The three short runs (the head equal to the base, a base that does
/// not build, a filter that matches nothing) are <see cref="PicolloAbShortRunTests"/>, beside this class.
/// The report goes to standard output, the reasons it could not run to standard error (issue 27): a script that
/// redirects standard output to a comment never posts an error as the report.
/// </summary>
/// <remarks>
/// The perf-test projects reference this repository's built Picollo assemblies (the configuration this test was built in)
/// instead of building Picollo from source, and restore from the machine's NuGet folder first: each tool run builds two or
/// three projects twice, and that must take seconds, offline where the machine has the packages. One repository serves
/// every test of the class (a class fixture), and the main run, which the first three tests read, runs once. The class does
/// not run alone (<see cref="AbPipelineGroup"/>): the assembly's other parallel test classes run beside it, as other work
/// runs beside <c>picollo ab</c> on a CI runner, and its verdicts must hold there.
/// </remarks>
[Collection(AbPipelineGroup.Name)]
public sealed class PicolloAbTests(PicolloAbTests.Repository repository) : IClassFixture<PicolloAbTests.Repository>
{
    // A cold SDK (first build of the session, no build server yet) takes ~20 s a project; the main run builds four and
    // runs about a dozen process pairs. Generous: a timeout here is a hang, which the tool must not have.
    private static readonly TimeSpan s_toolTimeout = TimeSpan.FromMinutes(5);

    [Fact]
    public void Ab_AChainThirtyPercentLonger_AndABoxPerCall_AreRegressions_ExitCode1_AndTheWorkingTreeIsUntouched()
    {
        Repository.MainRun main = repository.Main;
        string output = main.Run.StandardOutput;

        main.Run.ExitCode.ShouldBe(1, main.Run.Output);

        // A regression is the report's news, not an error: the report, headline and table, is standard output's only text,
        // so `picollo ab > ab.md` is the report; the progress for the person watching is on standard error.
        string progress = main.Run.StandardError;
        progress.ShouldContain($"picollo ab: head HEAD ({repository.Head[..10]}) against base HEAD~1 ({repository.Base[..10]})", Case.Sensitive, main.Run.Output);
        progress.ShouldContain("7 perf test(s) at the head, 7 at the base", Case.Sensitive, main.Run.Output);
        output.ShouldStartWith($"## picollo ab: HEAD ({repository.Head[..10]}) against HEAD~1 ({repository.Base[..10]})", Case.Sensitive, main.Run.Output);
        output.ShouldNotContain("Building", Case.Sensitive, main.Run.Output);

        // 2,600 steps against 2,000 of a chain where each step waits for the previous multiply: the time is the steps times
        // the multiply's latency, so ×1.30 within the pairs' noise, on both frameworks' workers. The noise is per process
        // pair as much as per sample: on a shared VM some pairs read ×1.18 or ×1.40-1.43 (one side's process at a slower
        // speed level for its whole life), and the mean of two to six pairs read 1.26-1.36 (twelve runs of this class).
        foreach (string chain in (string[])["WorkPerf.Chain", "NUnitWorkPerf.Chain"])
        {
            string[] cells = Cells(Row(output, chain));
            cells[1].ShouldBe("❌ regressed", output);
            Ratio(cells[2]).ShouldBeInRange(1.15, 1.5, $"{chain}: 30 % more steps of a latency-bound chain\n{output}");
        }

        // The verdict of the allocation comes from the exact counter, whatever the time says: a boxed int is 24 bytes on x64.
        string[] alloc = Cells(Row(output, "WorkPerf.Alloc"));
        alloc[1].ShouldBe("❌ regressed", output);
        alloc[6].ShouldContain("allocated-bytes 0 → 24 bytes/op (regressed)", Case.Sensitive, output);

        // Same code on both sides, a branch-free loop over a fixed text: its pairs' ratios stayed within 0.99-1.01 here (also
        // with a process spinning on the other core), and three pairs inside ±1.5 % of each other give a 99 % interval
        // inside ±10 % (the equivalence interval, at 90 %, is narrower still). A vectorized count was not as steady (0.96-1.04 between processes: where the text lands against
        // the cache lines differs per process), and would have left this inconclusive.
        string[] same = Cells(Row(output, "WorkPerf.Same"));
        same[1].ShouldStartWith("· unchanged within ±", Case.Sensitive, output);
        // Counters at 0 on both sides are counted, not listed: they said nothing on every row.
        same[6].ShouldMatch(@"^all \d+ at 0 → 0$", output);

        // A test whose claims are relative (Perf.Compare in its own process) is judged on the head alone: one pair says whether
        // they held, where it used to take pairs to the cap (10 here), two solo measurements each, to say it again.
        string[] relative = Cells(Row(output, "WorkPerf.HalfTheChain"));
        relative[1].ShouldBe("· relative claims held", output);
        relative[5].ShouldBe("1", output);

        // Regressions first: the headline counts them, and no other row comes before the last of them.
        output.ShouldContain("**3 regressed**", Case.Sensitive, output);
        string[] rows = Rows(output);
        rows.TakeWhile(static r => r.Contains("❌ regressed", StringComparison.Ordinal)).Count().ShouldBe(3, output);

        NoStackTrace(output);
        main.StatusAfter.ShouldBe(main.StatusBefore, "no bin/, obj/ or anything else appeared in the user's working tree");
        main.WorktreesAfter.ShouldBe([repository.Root], "the base's and the head's worktrees were removed");
    }

    [Fact]
    public void Ab_ABaseWorkerThatExitsInTheMiddleOfItsMeasurement_IsNotJudged_WithItsExitCode_AndTheOthersAreJudged()
    {
        // A worker that crashed is a row of the report (on standard output), not an error of the tool.
        string output = repository.Main.Run.StandardOutput;

        // WorkPerf.Crash calls Environment.Exit(3) in its body in the base only: the base worker ends while the tool waits
        // for its pilot. One pair, as a crash is not noise; the other tests still ran and decide the exit code (1).
        string[] crash = Cells(Row(output, "WorkPerf.Crash"));
        crash[1].ShouldBe("⚠️ not judged", output);
        crash[5].ShouldBe("1", output);
        string detail = Detail(output, "WorkPerf.Crash");
        detail.ShouldContain("The base worker", Case.Sensitive, output);
        detail.ShouldContain("exited with code 3", Case.Sensitive, $"the issue: \"not judged: the base worker exited with …\"\n{output}");
        repository.Main.Run.ExitCode.ShouldBe(1, output);
        NoStackTrace(output);
    }

    [Fact]
    public void Ab_ABaseWorkerThatExitsBeforeItsFirstMeasurement_IsNotJudged_NotNew()
    {
        string output = repository.Main.Run.StandardOutput;

        // EarlyCrashPerf's constructor calls Environment.Exit(3) in the base only: the base worker ends before it measures,
        // and the head measures alone. The test exists on both sides, so it is not new: it could not be judged.
        string[] crash = Cells(Row(output, "EarlyCrashPerf.Crash"));
        crash[1].ShouldBe("⚠️ not judged", output);
        Detail(output, "EarlyCrashPerf.Crash").ShouldContain("The base worker exited with code 3 without measuring.", Case.Sensitive, output);
    }

    [Fact]
    public void Ab_OutsideAGitRepository_ExitsTwo_AndSaysWhereToRunIt()
    {
        using var plain = new TempDirectory();

        PicolloTool.Run run = PicolloTool.Invoke(plain.Path, null, s_toolTimeout, Repository.ToolEnvironment, "ab", "--base", "main");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldBe($"picollo ab: {plain.Path} is not inside a git repository: run picollo ab from a clone of your repository (actions/checkout with fetch-depth: 0).\n", run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
    }

    [Fact]
    public void Ab_AnUnknownBase_ExitsTwo_AndNamesTheRef()
    {
        PicolloTool.Run run = repository.Ab("--base", "nosuchref");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo ab: The base 'nosuchref' is not a commit in the repository at {repository.Root}.", Case.Sensitive, run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
        NoStackTrace(run.Output);
        repository.Worktrees().ShouldBe([repository.Root]);
    }

    [Fact]
    public void Ab_AThresholdOfZero_ExitsTwo_BeforeAnythingIsBuilt()
    {
        PicolloTool.Run run = repository.Ab("--base", "HEAD~1", "--threshold", "0");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldBe("picollo ab: --threshold 0 is not a percentage in (0, 100): the change that matters, e.g. 5.\n", run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
    }

    [Fact]
    public void Ab_AnOutputInAFolderThatDoesNotExist_ExitsTwo_BeforeAnythingIsBuilt()
    {
        string missing = Path.Combine(repository.Root, "no-such-folder", "ab.md");

        PicolloTool.Run run = repository.Ab("--base", "HEAD~1", "--output", missing);

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldBe($"picollo ab: --output {missing}: the folder {Path.GetDirectoryName(missing)} does not exist. Create it, or name a file in an existing folder.\n", run.Output);
        run.StandardOutput.ShouldBeEmpty(run.Output);
    }

    // The markdown table's rows: "| `Test` | verdict | ratio | interval | d_z | pairs | exact counters |".
    internal static string[] Rows(string output) =>
        [.. output.Split('\n').Where(static l => l.StartsWith("| `", StringComparison.Ordinal))];

    internal static string Row(string output, string test)
    {
        string[] rows = [.. Rows(output).Where(r => r.StartsWith($"| `{test}` |", StringComparison.Ordinal))];
        rows.Length.ShouldBe(1, $"one row for {test}\n{output}");
        return rows[0];
    }

    internal static string[] Cells(string row) => [.. row.Trim().Trim('|').Split(" | ").Select(static c => c.Trim())];

    // "×1.305 (+30.5%)" → 1.305.
    private static double Ratio(string cell)
    {
        cell.ShouldStartWith("×");
        return double.Parse(cell[1..cell.IndexOf(' ', StringComparison.Ordinal)], CultureInfo.InvariantCulture);
    }

    // The report's "Details" line of a test: "- `Test`: what happened".
    private static string Detail(string output, string test)
    {
        string[] details = [.. output.Split('\n').Where(l => l.StartsWith($"- `{test}`: ", StringComparison.Ordinal))];
        details.ShouldNotBeEmpty($"a detail line for {test}\n{output}");
        return string.Join('\n', details);
    }

    internal static void NoStackTrace(string output)
    {
        output.ShouldNotContain("   at ", Case.Sensitive, output);
        output.ShouldNotContain("Exception", Case.Sensitive, output);
    }

    /// <summary>
    /// The temporary repository: <c>main</c> has the base commit and the head commit; the branch <c>fix-build</c> leaves
    /// the base with a commit whose library does not compile (tag <c>broken</c>) and one that fixes it.
    /// </summary>
    public sealed class Repository : IDisposable
    {
        private readonly TempDirectory _dir = new();
        private readonly Lazy<MainRun> _main;

        public Repository()
        {
            Directory.CreateDirectory(Root);
            Git("init", "--quiet", "--initial-branch=main");
            Git("config", "user.email", "ab@example.com");
            Git("config", "user.name", "ab");
            Git("config", "commit.gpgsign", "false");

            Write("nuget.config", NuGetConfig());
            Write("Directory.Packages.props", PackageVersions());
            Write("src/Lib/Lib.csproj", LibraryProject);
            Write("src/Lib/Work.cs", WorkSource(head: false));
            Write("tests/Lib.PerfTests/Lib.PerfTests.csproj", PerfTestProject("Xunit"));
            Write("tests/Lib.PerfTests/WorkPerf.cs", XunitTests(head: false));
            Write("tests/Lib.PerfTests/EarlyCrashPerf.cs", EarlyCrashTest(head: false));
            Write("tests/Lib.NUnitPerfTests/Lib.NUnitPerfTests.csproj", PerfTestProject("NUnit"));
            Write("tests/Lib.NUnitPerfTests/NUnitWorkPerf.cs", NUnitTests);
            Base = Commit("base");

            Git("checkout", "--quiet", "-b", "fix-build");
            Write("src/Lib/Work.cs", WorkSource(head: false).Replace("int steps = n;", "int steps = undefinedSteps;", StringComparison.Ordinal));
            Broken = Commit("a library that does not compile");
            Git("tag", "broken");
            Write("src/Lib/Work.cs", WorkSource(head: false));
            _ = Commit("the library compiles again");
            Git("checkout", "--quiet", "main");

            Write("src/Lib/Work.cs", WorkSource(head: true));
            Write("tests/Lib.PerfTests/WorkPerf.cs", XunitTests(head: true));
            Write("tests/Lib.PerfTests/EarlyCrashPerf.cs", EarlyCrashTest(head: true));
            Head = Commit("head: the chain 30 % longer, a box per call");

            _main = new Lazy<MainRun>(RunMain, LazyThreadSafetyMode.ExecutionAndPublication);
        }

        /// <summary>What the tool's environment must not have: a job summary it would append to, a folder it would copy records to.</summary>
        public static IReadOnlyDictionary<string, string?> ToolEnvironment { get; } = new Dictionary<string, string?>
        {
            ["GITHUB_STEP_SUMMARY"] = null,
            ["PICOLLO_AB_KEEP"] = null,
            ["PICOLLO_UPDATE_BASELINES"] = null,
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",

            // The tool's builds compile through the C# compiler server, as on a developer's machine: the VMs this repository
            // runs on set UseSharedCompilation=false, and then each of the ~16 compilations of these runs waited for a new
            // compiler process to start. The server saves wall time, not CPU (docs/ARCHITECTURE.md; issue 24, "Suite under 5
            // minutes"). Dispose shuts the server down.
            ["UseSharedCompilation"] = "true",
        };

        public string Root => _dir.Combine("repo");

        public string Base { get; }

        public string Head { get; }

        public string Broken { get; }

        /// <summary>The main run, once: <c>ab --base HEAD~1 --head HEAD --min-pairs 2 --max-pairs 10 --threshold 10</c>.</summary>
        internal MainRun Main => _main.Value;

        internal PicolloTool.Run Ab(params string[] arguments)
        {
            var clock = Stopwatch.StartNew();
            PicolloTool.Run run = PicolloTool.Invoke(Root, null, s_toolTimeout, ToolEnvironment, ["ab", .. arguments]);
            TestContext.Current.TestOutputHelper?.WriteLine($"picollo ab {string.Join(' ', arguments)}: exit code {run.ExitCode} after {clock.Elapsed.TotalSeconds:0} s\n{run.Output}");
            return run;
        }

        public string Status() => Git("status", "--porcelain", "--ignored");

        // The worktrees' paths, the main one first.
        public string[] Worktrees() =>
            [.. Git("worktree", "list", "--porcelain").Split('\n').Where(static l => l.StartsWith("worktree ", StringComparison.Ordinal)).Select(static l => l["worktree ".Length..])];

        /// <summary>
        /// Shuts the compiler server down (on a developer's machine, also the one other builds use: the next build starts it
        /// again), then deletes the repository. Both classes' fixtures are disposed before the measurement tests start (they
        /// run after every parallel collection), so no idle server stays beside them; a server shut down while the other
        /// class still builds finishes its compilations first.
        /// </summary>
        public void Dispose()
        {
            ShutDownCompilerServer();
            _dir.Dispose();
        }

        internal static void ShutDownCompilerServer()
        {
            var start = new ProcessStartInfo("dotnet", ["build-server", "shutdown", "--vbcscompiler"])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            using Process? shutdown = Process.Start(start);
            if (shutdown is null)
                return;
            _ = shutdown.StandardOutput.ReadToEndAsync();
            _ = shutdown.StandardError.ReadToEndAsync();
            if (!shutdown.WaitForExit(TimeSpan.FromSeconds(60)))
                shutdown.Kill(entireProcessTree: true);
        }

        private MainRun RunMain()
        {
            string before = Status();
            // Two pairs decide most tests; the cap is for pairs that disagree. On a shared VM one pair in five or six reads a
            // ratio 8-10 % off the others (a core's slower moment during one pair: 1.30, 1.18, 1.30 for the NUnit chain), and
            // with three pairs Student's t (9.9 at 99 %) then makes the interval -9 % … +75 %: inconclusive, in three runs of
            // three on one host. A fourth pair (t = 5.8) usually decides it; beside a spinning process the chains' pairs read
            // 1.16-1.51 and took five and six. So the tool's own default cap, 10; the tests that agree stop at two, so the cap
            // costs nothing then.
            PicolloTool.Run run = Ab("--base", "HEAD~1", "--head", "HEAD", "--min-pairs", "2", "--max-pairs", "10", "--threshold", "10");
            return new MainRun(run, before, Status(), Worktrees());
        }

        internal static string LibraryProject => """
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <TargetFramework>net10.0</TargetFramework>
                <Nullable>enable</Nullable>
              </PropertyGroup>
            </Project>
            """;

        // Base: the chain takes n steps and Box allocates nothing. Head: the chain takes 30 % more steps and Box keeps the
        // boxed value (a static field, so the JIT cannot put the box on the stack): one 24-byte object per call.
        private static string WorkSource(bool head)
        {
            string box = head
                ? "        object boxed = i;\n        Last = boxed;\n        return System.HashCode.Combine(boxed);"
                : "        return System.HashCode.Combine(i);";
            return $$"""
                namespace Lib;

                public static class Work
                {
                    public static object? Last { get; private set; }

                    // Each step's multiply waits for the previous step's result: the time is the steps times the multiply's latency.
                    public static ulong Chain(int n)
                    {
                        int steps = {{(head ? "n * 13 / 10" : "n")}};
                        ulong x = 1;
                        for (int k = 0; k < steps; k++)
                            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
                        return x;
                    }

                    // Branch-free: the same speed in every process.
                    public static int Words(string s)
                    {
                        int spaces = 0;
                        foreach (char c in s)
                            spaces += c == ' ' ? 1 : 0;
                        return spaces;
                    }

                    public static int Box(int i)
                    {
                {{box}}
                    }
                }
                """;
        }

        private static string XunitTests(bool head) => $$"""
            using Lib;
            using Picollo.Assertions;
            using Picollo.Testing;
            using Picollo.Testing.Xunit;

            namespace Lib.PerfTests;

            public class WorkPerf
            {
                private static readonly string Text = string.Concat(System.Linq.Enumerable.Repeat("lorem ipsum dolor sit amet ", 64));
                private int _next;

                [PerfFact]
                public ulong Chain() => Work.Chain(2000);

                [PerfFact]
                public int Alloc() => Work.Box(_next++);

                [PerfFact]
                public int Same() => Work.Words(Text);

                // Relative: twice the chain against the chain, in the test's own process; no time is paired across the builds.
                [PerfFact]
                public void HalfTheChain(PerfContext perf) =>
                    perf.Compare(1000, static n => Work.Chain(2 * n), static n => Work.Chain(n)).Tsc.ShouldBeFasterBy(1.3);

                [PerfFact]
                public int Crash()
                {
            {{(head ? "" : "        System.Environment.Exit(3);\n")}}        return Work.Words(Text);
                }
            }
            """;

        private static string EarlyCrashTest(bool head) => $$"""
            using Lib;
            using Picollo.Testing.Xunit;

            namespace Lib.PerfTests;

            public class EarlyCrashPerf
            {
            {{(head ? "" : "    public EarlyCrashPerf() => System.Environment.Exit(3);\n\n")}}    [PerfFact]
                public ulong Crash() => Work.Chain(500);
            }
            """;

        private const string NUnitTests = """
            using Lib;
            using Picollo.Testing.NUnit;

            namespace Lib.NUnitPerfTests;

            public class NUnitWorkPerf
            {
                [PerfTest]
                public ulong Chain() => Work.Chain(2000);
            }
            """;

        // The adapter's package would bring its buildTransitive props and targets; a reference to the built assembly does not,
        // so they are imported by path, as samples/TextKit.PerfTests does. picollo ab finds perf-test projects by a
        // PackageReference or ProjectReference to an adapter, which a Reference to its assembly is not: the comment names one.
        internal static string PerfTestProject(string framework)
        {
            string picollo = Built("Picollo");
            string adapter = Built("Picollo.Testing." + framework);
            string native = Path.Combine(Path.GetDirectoryName(picollo)!, "libpicollo_native.so");
            string packages = framework == "Xunit"
                ? """
                      <PackageReference Include="xunit.v3" />
                      <PackageReference Include="xunit.runner.visualstudio" />
                      <PackageReference Include="Microsoft.NET.Test.Sdk" />
                  """
                : """
                      <PackageReference Include="NUnit" />
                      <PackageReference Include="NUnit3TestAdapter" />
                      <PackageReference Include="Microsoft.NET.Test.Sdk" />
                  """;
            return $$"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <Import Project="{{Path.Combine(Tree, "build", $"Picollo.Testing.{framework}.props")}}" />
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                    {{(framework == "Xunit" ? "<OutputType>Exe</OutputType>" : "")}}
                    <IsTestProject>true</IsTestProject>
                    <Nullable>enable</Nullable>
                  </PropertyGroup>
                  <ItemGroup>
                {{packages}}
                  </ItemGroup>
                  <ItemGroup>
                    <!-- For picollo ab's project search: <PackageReference Include="Picollo.Testing.{{framework}}" /> -->
                    <Reference Include="Picollo" HintPath="{{picollo}}" />
                    <Reference Include="Picollo.Testing.{{framework}}" HintPath="{{adapter}}" />
                    <None Include="{{native}}" Condition="Exists('{{native}}')" Link="libpicollo_native.so" CopyToOutputDirectory="PreserveNewest" />
                    <ProjectReference Include="../../src/Lib/Lib.csproj" />
                  </ItemGroup>
                  <Import Project="{{Path.Combine(Tree, "build", $"Picollo.Testing.{framework}.targets")}}" />
                </Project>
                """;
        }

        // Restore from the machine's package folder first (a folder of id/version/*.nupkg is a feed), so a machine that built
        // the solution restores offline, in seconds; and from the machine's own sources after it (no <clear />): nothing in
        // the solution references NUnit3TestAdapter and its dependencies, so a fresh machine (a CI runner) has no copy of
        // them, and an offline restore failed every tool run of the NUnit project there with NU1101.
        internal static string NuGetConfig()
        {
            string cache = Environment.GetEnvironmentVariable("NUGET_PACKAGES") is { Length: > 0 } set
                ? set
                : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages");
            return $$"""
                <?xml version="1.0" encoding="utf-8"?>
                <configuration>
                  <packageSources>
                    <add key="machine-cache" value="{{cache}}" />
                  </packageSources>
                </configuration>
                """;
        }

        // The versions this repository pins, so the temporary projects restore what its own tests restored.
        internal static string PackageVersions()
        {
            XDocument pins = XDocument.Load(Path.Combine(Tree, "Directory.Packages.props"));
            string[] wanted = ["xunit.v3", "xunit.runner.visualstudio", "Microsoft.NET.Test.Sdk", "NUnit", "NUnit3TestAdapter"];
            IEnumerable<string> lines = wanted.Select(id =>
            {
                string version = pins.Descendants("PackageVersion").Single(e => (string?)e.Attribute("Include") == id).Attribute("Version")!.Value;
                return $"""    <PackageVersion Include="{id}" Version="{version}" />""";
            });
            return $"""
                <Project>
                  <PropertyGroup>
                    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>
                  </PropertyGroup>
                  <ItemGroup>
                {string.Join('\n', lines)}
                  </ItemGroup>
                </Project>
                """;
        }

        // bin/<Configuration>/<tfm>/ of this test assembly names the configuration this repository was built in.
        private static string Configuration => new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)).Parent!.Name;

        private static string Tree => RepositoryTree();

        private static string RepositoryTree([CallerFilePath] string here = "") =>
            Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", "..", ".."));

        // src/<project>/bin/<Configuration>/net10.0/<project>.dll of this repository.
        private static string Built(string project)
        {
            string path = Path.Combine(Tree, "src", project, "bin", Configuration, "net10.0", project + ".dll");
            return File.Exists(path) ? path : throw new FileNotFoundException($"{project}.dll is not built at {path}: build Picollo.sln in {Configuration}.", path);
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

        /// <summary>The main run's output and the repository's state around it.</summary>
        internal sealed record MainRun(PicolloTool.Run Run, string StatusBefore, string StatusAfter, string[] WorktreesAfter);
    }
}
