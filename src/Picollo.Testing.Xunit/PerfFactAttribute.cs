using System.Runtime.CompilerServices;
using Xunit;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// An xunit.v3 performance test. Either the method body is the measured operation (a method without parameters,
/// returning a value or not), repeated thousands of times on a pinned thread, with the budgets declared here and its
/// baseline judged (<see cref="Baseline"/> is on by default); or the method takes a <see cref="PerfContext"/>, measures
/// one region with <c>perf.Measure(...)</c> and asserts fluently (<see cref="Baseline"/> is then off unless declared).
/// </summary>
/// <remarks>
/// <para>
/// Every perf test runs alone: in a copy of its test collection that xunit never runs in parallel, and under a
/// machine-wide lock that keeps other test processes from measuring at the same time. It carries the trait
/// <c>Category=Performance</c>, so <c>dotnet test --filter Category!=Performance</c> leaves perf tests out.
/// </para>
/// <para>
/// An invalid knob fails this test with the property, the token and the valid form. An assertion on a counter this
/// machine cannot count becomes a warning; a test in which no assertion could run is skipped with the reason; code
/// built without optimizations (Debug) is skipped with the command to run instead. docs/TESTING.md has the whole story.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// [PerfFact(ZeroBudget = "allocated-bytes", MaxP99 = "tsc:20000")]
/// public int ParseSmall() => Parser.Parse("12345");
/// </code>
/// </example>
[XunitTestCaseDiscoverer(typeof(PerfFactDiscoverer))]
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed partial class PerfFactAttribute : FactAttribute, ITraitAttribute, IPerfTestDeclaration
{
    /// <summary>Declares a perf test; the compiler fills in where it is, which is where its baseline lives.</summary>
    /// <param name="sourceFilePath">Filled in by the compiler.</param>
    /// <param name="sourceLineNumber">Filled in by the compiler.</param>
    public PerfFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
    }

    /// <summary>The trait <c>Category=Performance</c>.</summary>
    /// <returns>The trait.</returns>
    public IReadOnlyCollection<KeyValuePair<string, string>> GetTraits() => [new(PerfXunit.CategoryTrait, PerfXunit.PerformanceCategory)];
}
