using System.Runtime.CompilerServices;
using NUnit.Framework;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using NUnit.Framework.Internal.Commands;

namespace Picollo.Testing.NUnit;

/// <summary>
/// An NUnit 4 performance test, with the same knobs and behaviour as xunit's <c>[PerfFact]</c>: the method body is the
/// measured operation (no parameters, returning a value or not), with the budgets declared here and its baseline judged
/// (<see cref="Baseline"/> is on by default); or the method takes a <see cref="PerfContext"/>, measures one region with
/// <c>perf.Measure(...)</c> and asserts fluently. docs/TESTING.md has the whole story.
/// </summary>
/// <remarks>
/// Built the NUnit way: an <see cref="ITestBuilder"/> (so NUnit.Analyzers accept a <see cref="PerfContext"/> parameter and a
/// value-returning body), an <see cref="IImplyFixture"/> (a class with only perf tests is a fixture) and an
/// <see cref="IWrapTestMethod"/> whose command lets Picollo invoke the method. Every perf test carries
/// <c>Category=Performance</c> and never runs in parallel with other tests, even in a <c>[Parallelizable]</c> fixture.
/// </remarks>
/// <example>
/// <code>
/// [PerfTest(ZeroBudget = "allocated-bytes", MaxP99 = "tsc:20000")]
/// public int ParseSmall() => Parser.Parse("12345");
/// </code>
/// </example>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
public sealed partial class PerfTestAttribute : NUnitAttribute, ITestBuilder, IImplyFixture, IWrapTestMethod, IPerfTestDeclaration
{
    /// <summary>Declares a perf test; the compiler fills in where it is, which is where its baseline lives.</summary>
    /// <param name="sourceFilePath">Filled in by the compiler.</param>
    public PerfTestAttribute([CallerFilePath] string sourceFilePath = "") => SourceFilePath = sourceFilePath;

    /// <summary>The test's source file: its baseline lives beside it.</summary>
    public string SourceFilePath { get; }

    /// <inheritdoc/>
    public IEnumerable<TestMethod> BuildFrom(IMethodInfo method, Test? suite)
    {
        ArgumentNullException.ThrowIfNull(method);
        yield return PerfNUnit.Build(method, suite, this, [], SourceFilePath, PerfNUnit.TestName);
    }

    /// <inheritdoc/>
    public TestCommand Wrap(TestCommand command) => PerfNUnit.Wrap(command);
}
