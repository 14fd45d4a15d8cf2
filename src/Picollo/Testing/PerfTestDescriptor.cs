using System.Globalization;
using System.Reflection;

namespace Picollo.Testing;

/// <summary>One perf test (or one case of a theory) as an adapter describes it to <see cref="PerfTestExecution"/>.</summary>
internal sealed class PerfTestDescriptor
{
    /// <summary>Describes a perf test.</summary>
    /// <param name="attribute">The attribute as written in messages, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="method">The test method.</param>
    /// <param name="testClass">The test class's name, which prefixes the baseline files.</param>
    /// <param name="caseName">The theory case (from its data), or <see langword="null"/>.</param>
    /// <param name="sourceFilePath">The test's source file (the attribute's <c>[CallerFilePath]</c>): the baseline lives beside it.</param>
    /// <param name="declaration">The attribute's knobs.</param>
    public PerfTestDescriptor(
        string attribute, MethodInfo method, string testClass, string? caseName, string sourceFilePath, IPerfTestDeclaration declaration)
    {
        ArgumentException.ThrowIfNullOrEmpty(attribute);
        ArgumentNullException.ThrowIfNull(method);
        ArgumentException.ThrowIfNullOrEmpty(testClass);
        ArgumentNullException.ThrowIfNull(sourceFilePath);
        ArgumentNullException.ThrowIfNull(declaration);
        Attribute = attribute;
        Method = method;
        TestClass = testClass;
        CaseName = string.IsNullOrEmpty(caseName) ? null : caseName;
        SourceFilePath = sourceFilePath;
        Declaration = declaration;
    }

    /// <summary>The attribute as written in messages, e.g. <c>[PerfFact]</c>.</summary>
    public string Attribute { get; }

    /// <summary>The test method.</summary>
    public MethodInfo Method { get; }

    /// <summary>The test class's name.</summary>
    public string TestClass { get; }

    /// <summary>The theory case, or <see langword="null"/>.</summary>
    public string? CaseName { get; }

    /// <summary>The test's source file.</summary>
    public string SourceFilePath { get; }

    /// <summary>The attribute's knobs.</summary>
    public IPerfTestDeclaration Declaration { get; }

    /// <summary>
    /// The case name that data gives a theory row or test case, and its baseline file: the values, invariant, joined by
    /// '-' (<c>16</c>, <c>16-utf8</c>); <see langword="null"/> without data. One rule for every adapter, so a test moved from
    /// xunit to NUnit keeps its baselines.
    /// </summary>
    /// <param name="data">The row's values, without the <see cref="PerfContext"/>.</param>
    /// <returns>The case name, or <see langword="null"/>.</returns>
    public static string? CaseNameOf(IReadOnlyList<object?> data)
    {
        ArgumentNullException.ThrowIfNull(data);
        return data.Count == 0 ? null : string.Join("-", data.Select(static value => value switch
        {
            null => "null",
            IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? "null",
        }));
    }

    /// <summary>
    /// How the adapter starts this test alone in a fresh process, so its baseline is recorded and its time regressions
    /// confirmed across processes (docs/VERDICTS.md, "Levels"); <see langword="null"/> when it cannot.
    /// </summary>
    internal PerfTestWorker? Worker { get; init; }

    /// <summary>
    /// How the adapter starts this test alone for its simulated counters (docs/COUNTERS.md, "Simulated counters"): a lean
    /// worker without its framework where the framework adds nothing (<see cref="LeanTestHost"/>), else <see cref="Worker"/>.
    /// </summary>
    internal PerfTestWorker? SimulationWorker { get; init; }

    /// <summary>Class.Method[.case], as reports name the test.</summary>
    public string DisplayName => CaseName is null ? $"{TestClass}.{Method.Name}" : $"{TestClass}.{Method.Name}({CaseName})";
}
