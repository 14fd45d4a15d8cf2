using System.Reflection;
using System.Runtime.CompilerServices;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// Every message builder (a class named <c>*Messages</c> in the product's assemblies, issue 28) has a golden file, and the
/// golden file shows every kind of message it builds: <c>Approved/&lt;Builder&gt;.approved.md</c> somewhere under
/// tests/Picollo.Tests, with a <c>## &lt;Method&gt;</c> heading per method, written by that builder's own test. A new message
/// is then a reviewed diff of its text, the way a changed report is.
/// </summary>
public sealed class MessageBuilderTests
{
    private static readonly string[] s_assemblies = ["Picollo", "Picollo.Cli", "Picollo.Testing.Xunit", "Picollo.Testing.NUnit"];

    /// <summary>Every message builder of the product, by name.</summary>
    public static TheoryData<string> Builders() => [.. BuilderTypes().Select(static t => t.FullName!)];

    [Fact]
    public void Builders_AreFoundInTheProductsAssemblies() =>
        Builders().Count.ShouldBeGreaterThan(0, "no class named *Messages in " + string.Join(", ", s_assemblies));

    [Theory]
    [MemberData(nameof(Builders))]
    public void EveryMessageKind_IsInTheBuildersGoldenFile(string builder)
    {
        Type type = BuilderTypes().Single(t => t.FullName == builder);
        string[] golden = [.. Directory.EnumerateFiles(TestsRoot(), type.Name + ".approved.md", SearchOption.AllDirectories)
            .Where(static f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))];
        golden.Length.ShouldBe(1, $"{builder} needs exactly one golden file Approved/{type.Name}.approved.md under tests/Picollo.Tests (found {golden.Length})");

        string[] headings = [.. File.ReadLines(golden[0]).Where(static l => l.StartsWith("## ", StringComparison.Ordinal)).Select(static l => l[3..])];
        string[] missing = [.. Kinds(type).Where(kind => !headings.Any(h => h == kind || h.StartsWith(kind + ":", StringComparison.Ordinal) || h.StartsWith(kind + " ", StringComparison.Ordinal)))];
        missing.ShouldBeEmpty($"{golden[0]} shows no case of {string.Join(", ", missing)}: add a '## <Method>' case for each to the builder's test");
    }

    // The kinds a builder builds: its static methods that return text, by name (overloads are one kind).
    private static IEnumerable<string> Kinds(Type type) =>
        type.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
            .Where(static m => !m.IsSpecialName && !m.IsPrivate && m.ReturnType == typeof(string) && m.GetCustomAttribute<CompilerGeneratedAttribute>() is null
                && !m.Name.Contains('<', StringComparison.Ordinal))
            .Select(static m => m.Name)
            .Distinct()
            .Order(StringComparer.Ordinal);

    private static IEnumerable<Type> BuilderTypes() =>
        s_assemblies.Select(Assembly.Load)
            .SelectMany(static a => a.GetTypes())
            .Where(static t => t.Name.EndsWith("Messages", StringComparison.Ordinal) && t is { IsClass: true, IsAbstract: true, IsSealed: true })
            .OrderBy(static t => t.FullName, StringComparer.Ordinal);

    private static string TestsRoot([CallerFilePath] string here = "") => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, ".."));
}
