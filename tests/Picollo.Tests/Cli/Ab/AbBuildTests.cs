using System.Diagnostics;
using Picollo.Cli.Ab;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// <c>picollo ab</c> building a revision with the real SDK (issue 26): tiny projects with no package reference, so restore
/// needs no feed, in a temporary git repository without a .gitignore, so anything the build wrote beside the sources shows
/// in <c>git status</c>. A base that does not compile is <see cref="PicolloAbShortRunTests"/>' run whose base does not
/// build: one build of a broken revision proves the quoted error lines for both (issue 24, "Suite under 5 minutes").
/// </summary>
public sealed class AbBuildTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public AbBuildTests()
    {
        Directory.CreateDirectory(Repo);
        Git("init", "--quiet", "--initial-branch=main");
        Git("config", "user.email", "ab@example.com");
        Git("config", "user.name", "ab");
        Git("config", "commit.gpgsign", "false");
    }

    private string Repo => _dir.Combine("repo");

    private string Artifacts => _dir.Combine("artifacts");

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Build_AClassLibrary_IsNotATestProgram_AndTheWorkingTreeStaysAsItWas()
    {
        Write("src/Lib/Lib.csproj", Project("Library"));
        Write("src/Lib/Words.cs", "namespace Lib;\npublic static class Words\n{\n    public static int Count(string s) => s.Split(' ').Length;\n}\n");
        string sha = CommitAll();
        Write("src/Lib/Uncommitted.cs", "namespace Lib;\npublic static class Uncommitted { }\n");
        string status = Git("status", "--porcelain", "--ignored");
        var log = new StringWriter();
        var head = new AbRevision("head", "working tree", sha, Repo);

        AbException e = Should.Throw<AbException>(() => AbBuild.Build(head, "src/Lib/Lib.csproj", Artifacts, log, TestContext.Current.CancellationToken));

        e.Message.ShouldBe("src/Lib/Lib.csproj is not a test program: Lib.dll has no .runtimeconfig.json beside it, so it cannot be started on its own. xunit.v3 test projects and NUnit projects built with Microsoft.NET.Test.Sdk are test programs; name one with --project.");
        File.Exists(Path.Combine(Artifacts, "head", "bin", "Lib", "release", "Lib.dll")).ShouldBeTrue("the build's outputs are under the side's artifacts folder");
        log.ToString().ShouldContain("Lib -> ", Case.Sensitive, "the build's progress lines went to the log");
        Git("status", "--porcelain", "--ignored").ShouldBe(status, "no bin/ or obj/ beside the sources, nothing else new");
        Directory.Exists(Path.Combine(Repo, "src", "Lib", "obj")).ShouldBeFalse();
    }

    [Fact]
    public void Build_AProjectTheRevisionLacks_SaysWhichAndWhy()
    {
        string sha = CommitAll();
        var @base = new AbRevision("base", "v1.0", sha, Repo);

        Should.Throw<AbException>(() => AbBuild.Build(@base, "tests/New.PerfTests/New.PerfTests.csproj", Artifacts, TextWriter.Null, TestContext.Current.CancellationToken)).Message
            .ShouldBe($"The base (v1.0, merge-base {sha[..7]}) has no project tests/New.PerfTests/New.PerfTests.csproj: it is new in the head, was moved, or is misspelled. Name a project both revisions have with --project.");
    }

    private static string Project(string outputType) => $"""
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <TargetFramework>net10.0</TargetFramework>
            <OutputType>{outputType}</OutputType>
            <Nullable>enable</Nullable>
          </PropertyGroup>
        </Project>
        """;

    private void Write(string path, string text)
    {
        string file = Path.Combine([Repo, .. path.Split('/')]);
        Directory.CreateDirectory(Path.GetDirectoryName(file)!);
        File.WriteAllText(file, text);
    }

    private string CommitAll()
    {
        Write("README.md", "A repository picollo ab builds.\n");
        Git("add", "--all");
        Git("commit", "--quiet", "-m", "sources");
        return Git("rev-parse", "HEAD").Trim();
    }

    private string Git(params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = Repo, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        using Process git = Process.Start(start)!;
        Task<string> error = git.StandardError.ReadToEndAsync();
        string output = git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        return git.ExitCode == 0 ? output : throw new InvalidOperationException($"git {string.Join(' ', arguments)} exited with {git.ExitCode}: {error.Result}");
    }
}
