using Picollo.Baselines;
using Picollo.Baselines.Storage;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

public sealed class BaselineLocatorTests
{
    private static Func<string, string?> NoEnv => _ => null;

    [Fact]
    public void ExistingCallerPath_GivesItsDirectory()
    {
        string path = new BaselineLocator(getEnvironmentVariable: NoEnv).GetBaselinePath(ThisFile(), "Sorting", "Quick", "n=100, order \"desc\"");

        path.ShouldBe(Path.Combine(Path.GetDirectoryName(ThisFile())!, "Sorting.Quick.n_100__order__desc_.perf.json"));
    }

    [Fact]
    public void DeterministicPath_IsMappedBySearchingUpFromTheBaseDirectory()
    {
        using var repo = new TempDirectory();
        string source = repo.Combine("tests", "My.Tests", "Perf", "SortTests.cs");
        Directory.CreateDirectory(Path.GetDirectoryName(source)!);
        File.WriteAllText(source, "// test");
        string bin = repo.Combine("tests", "My.Tests", "bin", "Release", "net10.0");
        Directory.CreateDirectory(bin);

        var locator = new BaselineLocator(baseDirectory: bin, getEnvironmentVariable: NoEnv);

        locator.ResolveSourceDirectory("/_/tests/My.Tests/Perf/SortTests.cs").ShouldBe(Path.GetDirectoryName(source));
        locator.ResolveSourceDirectory(@"/_1/tests\My.Tests\Perf\SortTests.cs").ShouldBe(Path.GetDirectoryName(source));
    }

    [Fact]
    public void DeterministicPath_IsMappedByTheRootVariable()
    {
        using var repo = new TempDirectory();
        Directory.CreateDirectory(repo.Combine("src", "Perf"));
        using var elsewhere = new TempDirectory();

        var locator = new BaselineLocator(baseDirectory: elsewhere.Path, getEnvironmentVariable: name => name == "PICOLLO_BASELINE_ROOT" ? repo.Path : null);

        locator.GetBaselinePath("/_/src/Perf/T.cs", "T", "M").ShouldBe(repo.Combine("src", "Perf", "T.M.perf.json"));
    }

    [Fact]
    public void UnmappablePath_FailsNamingWhatWasTried()
    {
        using var elsewhere = new TempDirectory();
        var locator = new BaselineLocator(baselineRoot: "/nonexistent-root", baseDirectory: elsewhere.Path, getEnvironmentVariable: NoEnv);

        var ex = Should.Throw<DirectoryNotFoundException>(() => locator.ResolveSourceDirectory("/_/tests/X/T.cs"));

        ex.Message.ShouldContain("/_/tests/X/T.cs");
        ex.Message.ShouldContain("/nonexistent-root/tests/X/T.cs (PICOLLO_BASELINE_ROOT)");
        ex.Message.ShouldContain(Path.Combine(elsewhere.Path, "tests", "X", "T.cs"));
        ex.Message.ShouldContain("set PICOLLO_BASELINE_ROOT");
    }

    [Fact]
    public void ReceivedPath_SitsBesideTheBaseline() =>
        BaselineLocator.GetReceivedPath("/r/T.M.perf.json").ShouldBe("/r/T.M.received.perf.json");

    [Fact]
    public void FileName_WithoutCase_HasNoCaseSegment() =>
        BaselineLocator.GetFileName("Outer+Inner", "Run").ShouldBe("Outer+Inner.Run.perf.json");

    private static string ThisFile([System.Runtime.CompilerServices.CallerFilePath] string path = "") => path;
}
