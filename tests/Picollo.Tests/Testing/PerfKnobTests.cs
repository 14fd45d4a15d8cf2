using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;
using Picollo.Testing;
using Picollo.Testing.Xunit;
using Shouldly;
using Xunit;
using NUnitPerfTest = Picollo.Testing.NUnit.PerfTestAttribute;
using NUnitPerfTestCase = Picollo.Testing.NUnit.PerfTestCaseAttribute;

namespace Picollo.Tests.Testing;

/// <summary>
/// The knobs are declared once, on <see cref="IPerfTestDeclaration"/> with their <see cref="PerfKnobAttribute"/> entry (issue
/// 28): the five attributes get them from the build's generator, and docs/TESTING.md's table from the same entries.
/// </summary>
public sealed class PerfKnobTests
{
    private static readonly PropertyInfo[] s_knobs = typeof(IPerfTestDeclaration).GetProperties();

    public static TheoryData<Type> Attributes => new()
    {
        typeof(PerfFactAttribute),
        typeof(PerfTheoryAttribute),
        typeof(NUnitPerfTest),
        typeof(NUnitPerfTestCase),
        typeof(PerfDefaultsAttribute),
    };

    [Theory]
    [MemberData(nameof(Attributes))]
    public void EveryAttribute_ExposesEveryKnob_WithTheInterfacesType_AndTestOnlyOnesOnlyOnTests(Type attribute)
    {
        bool assemblyWide = attribute == typeof(PerfDefaultsAttribute);
        foreach (PropertyInfo knob in s_knobs)
        {
            PropertyInfo? property = attribute.GetProperty(knob.Name, BindingFlags.Public | BindingFlags.Instance);
            if (assemblyWide && Entry(knob).TestOnly)
            {
                property.ShouldBeNull($"{attribute.Name}.{knob.Name}: a test-only knob");
                continue;
            }

            property.ShouldNotBeNull($"{attribute.Name}.{knob.Name}");
            property.CanWrite.ShouldBeTrue($"{attribute.Name}.{knob.Name} is settable in an attribute argument");
            property.PropertyType.ShouldBe(Nullable.GetUnderlyingType(knob.PropertyType) ?? knob.PropertyType, $"{attribute.Name}.{knob.Name}");
        }
    }

    [Theory]
    [MemberData(nameof(Attributes))]
    public void AKnobNotSet_IsNullThroughTheInterface_AndItsUnsetValueThroughTheAttribute(Type attribute)
    {
        var declaration = (IPerfTestDeclaration)Create(attribute);
        foreach (PropertyInfo knob in s_knobs)
        {
            knob.GetValue(declaration).ShouldBeNull($"{attribute.Name}.{knob.Name}");
            if (attribute.GetProperty(knob.Name) is { } property && Nullable.GetUnderlyingType(knob.PropertyType) is { } plain)
            {
                object expected = Entry(knob).Unset is { } unset ? Convert.ChangeType(unset, plain, System.Globalization.CultureInfo.InvariantCulture)
                    : plain == typeof(double) ? double.NaN
                    : Activator.CreateInstance(plain)!;
                property.GetValue(declaration).ShouldBe(expected, $"{attribute.Name}.{knob.Name}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(Attributes))]
    public void AKnobSet_ReadsBackThroughTheInterface(Type attribute)
    {
        var declaration = (IPerfTestDeclaration)Create(attribute);
        foreach (PropertyInfo knob in s_knobs)
        {
            if (attribute.GetProperty(knob.Name) is not { } property)
                continue;

            object value = property.PropertyType switch
            {
                Type t when t == typeof(string) => "tsc",
                Type t when t == typeof(bool) => true,
                Type t when t == typeof(double) => 0.25,
                Type t when t == typeof(int) => 7,
                Type t when t == typeof(UnavailableCounterPolicy) => UnavailableCounterPolicy.Fail,
                Type t => throw new InvalidOperationException($"A knob of type {t}: add a sample value here."),
            };
            property.SetValue(declaration, value);
            knob.GetValue(declaration).ShouldBe(value, $"{attribute.Name}.{knob.Name}");
        }
    }

    [Fact]
    public void TheDocsKnobTable_IsTheEntriesOfTheInterface()
    {
        string docs = File.ReadAllText(Path.Combine(RepositoryRoot(), "docs", "TESTING.md")).ReplaceLineEndings("\n");
        const string Header = "| Knob | Form | Default |\n| --- | --- | --- |\n";
        int start = docs.IndexOf(Header, StringComparison.Ordinal);
        start.ShouldBeGreaterThan(0, "docs/TESTING.md has the knob table under \"## Knobs\"");
        int end = docs.IndexOf("\n\n", start, StringComparison.Ordinal);

        string expected = Header + Table();
        docs[start..(end + 1)].ShouldBe(expected, "docs/TESTING.md's knob table is written from IPerfTestDeclaration's [PerfKnob] entries; replace it with the expected text");
    }

    // One row per knob, in the interface's order; neighbours with the same form and default share a row.
    private static string Table()
    {
        var rows = new List<(List<string> Names, string Form, string Default)>();
        foreach (PropertyInfo knob in s_knobs)
        {
            PerfKnobAttribute entry = Entry(knob);
            if (rows.Count > 0 && rows[^1].Form == entry.Form && rows[^1].Default == entry.Default)
                rows[^1].Names.Add(knob.Name);
            else
                rows.Add(([knob.Name], entry.Form, entry.Default));
        }

        var table = new StringBuilder();
        foreach ((List<string> names, string form, string defaultValue) in rows)
            table.Append(System.Globalization.CultureInfo.InvariantCulture, $"| {string.Join(", ", names.Select(static n => $"`{n}`"))} | {form} | {defaultValue} |\n");
        return table.ToString();
    }

    private static PerfKnobAttribute Entry(PropertyInfo knob) =>
        knob.GetCustomAttribute<PerfKnobAttribute>() ?? throw new InvalidOperationException($"IPerfTestDeclaration.{knob.Name} has no [PerfKnob] entry.");

    private static object Create(Type attribute) =>
        attribute.GetConstructors().OrderBy(static c => c.GetParameters().Length).First() is var constructor
            ? constructor.Invoke([.. constructor.GetParameters().Select(static p => p.HasDefaultValue ? p.DefaultValue : p.ParameterType.IsValueType ? Activator.CreateInstance(p.ParameterType) : null)])
            : throw new InvalidOperationException();

    private static string RepositoryRoot([CallerFilePath] string here = "") => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", ".."));
}
