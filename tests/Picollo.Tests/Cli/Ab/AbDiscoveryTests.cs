using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using Picollo.Cli.Ab;
using Picollo.Testing.NUnit;
using Picollo.Testing.Xunit;
using Picollo.Tests.Baselines;
using Picollo.Tests.NUnitSamples;
using Picollo.Tests.XunitSamples;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// <c>picollo ab</c> finding perf-test projects in a source tree and perf tests in built assemblies (issue 26): the adapters'
/// sample assemblies this test project builds, and assemblies emitted here for the shapes the samples lack.
/// </summary>
public sealed class AbDiscoveryTests : IDisposable
{
    private const string SupportedForms = "use FullyQualifiedName, Name or ClassName with = (is), != (is not), ~ (contains) or !~ (does not contain), joined with | (or) and & (and), e.g. \"FullyQualifiedName~Parser|Name=Count\".";

    private static readonly string s_xunitSamples = typeof(BaselineBody).Assembly.Location;
    private static readonly string s_nunitSamples = typeof(NUnitBaselines).Assembly.Location;

    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void FindTests_TheXunitSamples_AreEveryPerfFactAndPerfTheory_AsReflectionSeesThem()
    {
        AbTestAssembly found = AbDiscovery.FindTests("tests/Picollo.Tests.XunitSamples/Picollo.Tests.XunitSamples.csproj", s_xunitSamples, null);

        found.Framework.ShouldBe(AbFramework.Xunit);
        found.ProjectRelativePath.ShouldBe("tests/Picollo.Tests.XunitSamples/Picollo.Tests.XunitSamples.csproj");
        found.AssemblyPath.ShouldBe(s_xunitSamples);
        found.Tests.Select(static t => t.FullName).ShouldBe(Declared(typeof(BaselineBody).Assembly, typeof(PerfFactAttribute), typeof(PerfTheoryAttribute)));
        found.Tests.ShouldContain(new AbTest("Picollo.Tests.XunitSamples.BaselineTheory.Chain", "Picollo.Tests.XunitSamples.BaselineTheory", "Chain"), "a theory is one test");
    }

    [Fact]
    public void FindTests_TheNUnitSamples_AreEveryPerfTestAndPerfTestCaseMethod_Once()
    {
        AbTestAssembly found = AbDiscovery.FindTests("tests/Picollo.Tests.NUnitSamples/Picollo.Tests.NUnitSamples.csproj", s_nunitSamples, null);

        found.Framework.ShouldBe(AbFramework.NUnit);
        found.Tests.Select(static t => t.FullName).ShouldBe(Declared(typeof(NUnitBaselines).Assembly, typeof(PerfTestAttribute), typeof(PerfTestCaseAttribute)));
        found.Tests.Count(static t => t.FullName == "Picollo.Tests.NUnitSamples.NUnitBaselines.Cases").ShouldBe(1, "two [PerfTestCase] rows are one test");
    }

    [Fact]
    public void FindTests_NestedInheritedStaticAndAbstract_AreNamedAsTheFrameworksRunThem()
    {
        string assembly = EmitNUnitFixtures();

        AbTestAssembly found = AbDiscovery.FindTests("Fixtures.csproj", assembly, null);

        found.Framework.ShouldBe(AbFramework.NUnit);
        found.Tests.ShouldBe(
        [
            new AbTest("Fixtures.Cases.Rows", "Fixtures.Cases", "Rows"),
            new AbTest("Fixtures.Derived.Inherited", "Fixtures.Derived", "Inherited"),
            new AbTest("Fixtures.Outer+Inner.Nested", "Fixtures.Outer+Inner", "Nested"),
            new AbTest("Fixtures.Static.OnStatic", "Fixtures.Static", "OnStatic"),
        ], "an abstract class's method runs as its derived class's (dotnet test: Fixtures.Derived.Inherited), not on its own");
    }

    [Theory]
    [InlineData("FullyQualifiedName~Against")]
    [InlineData("Against")]
    [InlineData("fullyqualifiedname~AGAINST")]
    public void FindTests_AContainsFilter_OrABareText_SelectsByFullName(string filter)
    {
        AbTest[] all = All();

        AbDiscovery.FindTests("x.csproj", s_xunitSamples, filter).Tests
            .ShouldBe([.. all.Where(static t => t.FullName.Contains("against", StringComparison.OrdinalIgnoreCase))]);
    }

    [Fact]
    public void FindTests_Filters_CombineAsDotnetTestDoes_AndBindsBeforeOr()
    {
        AbTest[] all = All();
        AbTest first = all[0];

        Select($"FullyQualifiedName={first.FullName}").ShouldBe([first]);
        Select($"FullyQualifiedName!={first.FullName}").ShouldBe(all[1..]);
        Select("Name=Chain").ShouldBe([.. all.Where(static t => t.MethodName == "Chain")]);
        Select("ClassName~Budget&Name!~Met").ShouldBe([.. all.Where(static t => t.ClassName.Contains("Budget", StringComparison.Ordinal) && !t.MethodName.Contains("Met", StringComparison.Ordinal))]);
        Select("ClassName~Baseline|ClassName~Budget&Name=Chain").ShouldBe([.. all.Where(static t => t.ClassName.Contains("Baseline", StringComparison.Ordinal) || (t.ClassName.Contains("Budget", StringComparison.Ordinal) && t.MethodName == "Chain"))]);
        Select("(ClassName~Baseline|ClassName~Budget)&Name=Chain").ShouldBe([.. all.Where(static t => (t.ClassName.Contains("Baseline", StringComparison.Ordinal) || t.ClassName.Contains("Budget", StringComparison.Ordinal)) && t.MethodName == "Chain")]);
        Select(@"Against\|Budget").ShouldBeEmpty("an escaped | is text, not or");
        Select("NoSuchTest").ShouldBeEmpty();

        static AbTest[] Select(string filter) => [.. AbDiscovery.FindTests("x.csproj", s_xunitSamples, filter).Tests];
    }

    [Theory]
    [InlineData("Category=Performance", "The filter property 'Category' is not supported by picollo ab: " + SupportedForms)]
    [InlineData("Name~Chain|Trait=x", "The filter property 'Trait' is not supported by picollo ab: " + SupportedForms)]
    [InlineData("(Name=Chain", "The filter '(Name=Chain' has a '(' without its ')': " + SupportedForms)]
    [InlineData("Name=", "The filter 'Name=' has an empty condition at character 1: " + SupportedForms)]
    [InlineData("Name=Chain||Name=Met", "The filter 'Name=Chain||Name=Met' has an empty condition at character 12: " + SupportedForms)]
    public void FindTests_AFilterItCannotApply_IsAnErrorThatNamesTheProblem(string filter, string message)
    {
        Should.Throw<AbException>(() => AbDiscovery.FindTests("x.csproj", s_xunitSamples, filter)).Message.ShouldBe(message);
    }

    [Fact]
    public void FindTests_AnAssemblyWithoutPerfTestsOrAdapter_IsNotAPerfTestProject()
    {
        string library = typeof(Picollo.Measurement.Perf).Assembly.Location;

        Should.Throw<AbException>(() => AbDiscovery.FindTests("src/Picollo/Picollo.csproj", library, null)).Message
            .ShouldBe("src/Picollo/Picollo.csproj has no perf test, and its assembly references neither Picollo.Testing.Xunit nor Picollo.Testing.NUnit: it is not a perf-test project. Name one with --project.");
        string missing = _dir.Combine("gone.dll");
        Should.Throw<AbException>(() => AbDiscovery.FindTests("gone.csproj", missing, null)).Message
            .ShouldBe($"The assembly {missing} of gone.csproj does not exist: build the project first.");
    }

    [Fact]
    public void FindProjects_ThoseReferencingAnAdapter_ByPackageOrProject_OutsideBuildFolders()
    {
        Project("tests/A.PerfTests/A.PerfTests.csproj", """<PackageReference Include="Picollo.Testing.Xunit" />""");
        Project("tests/B.PerfTests/B.PerfTests.csproj", """<ProjectReference Include="..\..\src\Picollo.Testing.NUnit\Picollo.Testing.NUnit.csproj" />""");
        Project("tests/C.Tests/C.Tests.csproj", """<PackageReference Include="xunit.v3" /><PackageReference Include="Picollo.Testing.XunitExtras" />""");
        Project("src/Lib/Lib.csproj", "");
        foreach (string skipped in new[] { "bin", "obj", "artifacts", "node_modules", ".git" })
            Project($"tests/A.PerfTests/{skipped}/Copy/Copy.csproj", """<PackageReference Include="Picollo.Testing.Xunit" />""");

        AbDiscovery.FindProjects(_dir.Path, null).ShouldBe(["tests/A.PerfTests/A.PerfTests.csproj", "tests/B.PerfTests/B.PerfTests.csproj"]);
    }

    [Fact]
    public void FindProjects_NoneFound_SaysWhatAPerfTestProjectIs()
    {
        Project("src/Lib/Lib.csproj", "");

        Should.Throw<AbException>(() => AbDiscovery.FindProjects(_dir.Path, null)).Message
            .ShouldBe($"No perf-test projects under {_dir.Path}: a perf-test project references Picollo.Testing.Xunit or Picollo.Testing.NUnit. Name one with --project.");
    }

    [Fact]
    public void FindProjects_ThisRepository_HoldsTheSamplesPerfTests()
    {
        IReadOnlyList<string> projects = AbDiscovery.FindProjects(RepositoryRoot(), null);

        projects.ShouldContain("samples/TextKit.PerfTests/TextKit.PerfTests.csproj");
        projects.ShouldContain("samples/TextKit.NUnitPerfTests/TextKit.NUnitPerfTests.csproj");
        projects.ShouldNotContain("src/Picollo/Picollo.csproj");
        projects.ShouldNotContain("src/Picollo.Testing.Xunit/Picollo.Testing.Xunit.csproj", "the adapter does not reference itself");
    }

    [Fact]
    public void FindProjects_ANamedProject_IsItsFileOrItsFolder_RelativeToTheRoot()
    {
        Project("tests/A.PerfTests/A.PerfTests.csproj", "");
        Project("tests/Two/One.csproj", "");
        Project("tests/Two/Two.csproj", "");
        Directory.CreateDirectory(_dir.Combine("tests", "Empty"));

        AbDiscovery.FindProjects(_dir.Path, "tests/A.PerfTests").ShouldBe(["tests/A.PerfTests/A.PerfTests.csproj"]);
        AbDiscovery.FindProjects(_dir.Path, "tests/A.PerfTests/A.PerfTests.csproj").ShouldBe(["tests/A.PerfTests/A.PerfTests.csproj"]);
        AbDiscovery.FindProjects(_dir.Path, _dir.Combine("tests", "A.PerfTests")).ShouldBe(["tests/A.PerfTests/A.PerfTests.csproj"], "a full path");
        Should.Throw<AbException>(() => AbDiscovery.FindProjects(_dir.Path, "tests/Two")).Message
            .ShouldBe($"--project tests/Two: the folder {_dir.Combine("tests", "Two")} holds 2 projects (One.csproj, Two.csproj). Name the perf-test project's .csproj.");
        Should.Throw<AbException>(() => AbDiscovery.FindProjects(_dir.Path, "tests/Empty")).Message
            .ShouldBe($"--project tests/Empty: the folder {_dir.Combine("tests", "Empty")} holds no .csproj. Name the perf-test project's .csproj or its folder.");
        Should.Throw<AbException>(() => AbDiscovery.FindProjects(_dir.Path, "tests/Missing.PerfTests")).Message
            .ShouldBe($"--project tests/Missing.PerfTests does not exist (looked in {Directory.GetCurrentDirectory()} and {_dir.Path}): name a perf-test project's .csproj or its folder.");
    }

    private static AbTest[] All() => [.. AbDiscovery.FindTests("x.csproj", s_xunitSamples, null).Tests];

    // The oracle: what reflection on the loaded assembly says carries the attributes, in classes a framework runs.
    private static string[] Declared(Assembly assembly, params Type[] attributes) => [.. assembly.GetTypes()
        .Where(static t => !t.IsAbstract || t.IsSealed)
        .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static)
            .Where(m => attributes.Any(a => m.IsDefined(a, inherit: false)))
            .Select(m => t.FullName + "." + m.Name))
        .Distinct()
        .Order(StringComparer.Ordinal)];

    private void Project(string path, string references)
    {
        string file = _dir.Combine(path.Split('/'));
        Directory.CreateDirectory(Path.GetDirectoryName(file)!);
        File.WriteAllText(file, $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <ItemGroup>
                {references}
              </ItemGroup>
            </Project>
            """);
    }

    // Shapes the samples lack, written as metadata the way the C# compiler writes them: a nested class, an abstract base
    // whose test a derived class runs, a static class, and a method with two [PerfTestCase] rows beside one with none.
    private string EmitNUnitFixtures()
    {
        var assembly = new PersistedAssemblyBuilder(new AssemblyName("Ab.Fixtures"), typeof(object).Assembly);
        ModuleBuilder module = assembly.DefineDynamicModule("Ab.Fixtures");
        var perfTest = new CustomAttributeBuilder(typeof(PerfTestAttribute).GetConstructor([typeof(string)])!, [""]);
        var row = new CustomAttributeBuilder(typeof(PerfTestCaseAttribute).GetConstructor([typeof(object[])])!, [new object[] { 1 }]);

        TypeBuilder outer = module.DefineType("Fixtures.Outer", TypeAttributes.Public);
        TypeBuilder inner = outer.DefineNestedType("Inner", TypeAttributes.NestedPublic);
        Method(inner, "Nested", MethodAttributes.Public, perfTest);
        TypeBuilder @base = module.DefineType("Fixtures.Base", TypeAttributes.Public | TypeAttributes.Abstract);
        Method(@base, "Inherited", MethodAttributes.Public, perfTest);
        TypeBuilder derived = module.DefineType("Fixtures.Derived", TypeAttributes.Public, @base);
        TypeBuilder @static = module.DefineType("Fixtures.Static", TypeAttributes.Public | TypeAttributes.Abstract | TypeAttributes.Sealed);
        Method(@static, "OnStatic", MethodAttributes.Public | MethodAttributes.Static, perfTest);
        TypeBuilder cases = module.DefineType("Fixtures.Cases", TypeAttributes.Public);
        Method(cases, "Rows", MethodAttributes.Public, row, row);
        Method(cases, "NotAPerfTest", MethodAttributes.Public);
        foreach (TypeBuilder type in new[] { outer, inner, @base, derived, @static, cases })
            type.CreateType();

        string path = _dir.Combine("Ab.Fixtures.dll");
        assembly.Save(path);
        return path;

        static void Method(TypeBuilder type, string name, MethodAttributes attributes, params CustomAttributeBuilder[] markers)
        {
            MethodBuilder method = type.DefineMethod(name, attributes, typeof(void), Type.EmptyTypes);
            method.GetILGenerator().Emit(OpCodes.Ret);
            foreach (CustomAttributeBuilder marker in markers)
                method.SetCustomAttribute(marker);
        }
    }

    private static string RepositoryRoot([CallerFilePath] string here = "") => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", "..", ".."));
}
