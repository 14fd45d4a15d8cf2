using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Where <see cref="BaselineStoreOptions.BaselineDirectory"/> puts baselines: an absolute folder as given, a relative one
/// from the repository root of the test's source, never from the current directory (the build output under dotnet test).
/// </summary>
public sealed class BaselineDirectoryTests
{
    [Fact]
    public void RelativeFolder_IsTakenFromTheRepositoryRootOfTheTestsSource()
    {
        using var repo = new TempDirectory();
        Directory.CreateDirectory(Path.Combine(repo.Path, ".git"));
        string source = Path.Combine(repo.Path, "tests", "Acme.PerfTests", "Parsing", "ParserPerf.cs");
        Directory.CreateDirectory(Path.GetDirectoryName(source)!);
        File.WriteAllText(source, "// a test");

        (string path, string? problem) = BaselineJudge.Locate(source, "ParserPerf", "Parse", null, new BaselineStoreOptions { BaselineDirectory = "perf-baselines" });

        problem.ShouldBeNull();
        path.ShouldBe(Path.Combine(repo.Path, "perf-baselines", "ParserPerf.Parse.perf.json"));
        Path.GetFullPath(Directory.GetCurrentDirectory()).ShouldNotStartWith(repo.Path, customMessage: "the current directory is not where a relative folder goes");
    }

    [Fact]
    public void RelativeFolder_OutsideAGitRepository_IsTakenFromTheTestsSourceFolder()
    {
        using var folder = new TempDirectory();
        string source = Path.Combine(folder.Path, "ParserPerf.cs");
        File.WriteAllText(source, "// a test");

        BaselineJudge.Locate(source, "ParserPerf", "Parse", "16", new BaselineStoreOptions { BaselineDirectory = "perf-baselines" }).Path
            .ShouldBe(Path.Combine(folder.Path, "perf-baselines", "ParserPerf.Parse.16.perf.json"));
    }

    [Fact]
    public void AbsoluteFolder_IsUsedAsGiven_AndNoFolder_MeansBesideTheSource()
    {
        using var folder = new TempDirectory();
        string source = Path.Combine(folder.Path, "ParserPerf.cs");
        File.WriteAllText(source, "// a test");
        string elsewhere = Path.Combine(folder.Path, "elsewhere");

        BaselineJudge.Locate(source, "ParserPerf", "Parse", null, new BaselineStoreOptions { BaselineDirectory = elsewhere }).Path
            .ShouldBe(Path.Combine(elsewhere, "ParserPerf.Parse.perf.json"));
        BaselineJudge.Locate(source, "ParserPerf", "Parse", null, new BaselineStoreOptions()).Path
            .ShouldBe(Path.Combine(folder.Path, "ParserPerf.Parse.perf.json"));
    }
}
