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
public sealed class PerfTestAttribute : NUnitAttribute, ITestBuilder, IImplyFixture, IWrapTestMethod, IPerfTestDeclaration
{
    private bool? _baseline;
    private double? _maxChange;
    private double? _confidence;
    private double? _maxCohensD;
    private double? _minSpeedup;
    private double? _maxSlowdown;
    private double? _minCohensD;
    private int? _recordingProcesses;
    private int? _samples;
    private int? _timeBudgetMs;
    private int? _warmupMs;
    private UnavailableCounterPolicy? _whenUnavailable;

    /// <summary>Declares a perf test; the compiler fills in where it is, which is where its baseline lives.</summary>
    /// <param name="sourceFilePath">Filled in by the compiler.</param>
    public PerfTestAttribute([CallerFilePath] string sourceFilePath = "") => SourceFilePath = sourceFilePath;

    /// <summary>The test's source file: its baseline lives beside it.</summary>
    public string SourceFilePath { get; }

    /// <inheritdoc/>
    public string? Counters { get; set; }

    /// <inheritdoc/>
    public string? MaxP50 { get; set; }

    /// <inheritdoc/>
    public string? MaxP99 { get; set; }

    /// <inheritdoc/>
    public string? MaxMean { get; set; }

    /// <inheritdoc/>
    public string? ZeroBudget { get; set; }

    /// <inheritdoc cref="IPerfTestDeclaration.Baseline"/>
    public bool Baseline { get => _baseline ?? false; set => _baseline = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.MaxChange"/>
    public double MaxChange { get => _maxChange ?? double.NaN; set => _maxChange = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.Confidence"/>
    public double Confidence { get => _confidence ?? double.NaN; set => _confidence = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.MaxCohensD"/>
    public double MaxCohensD { get => _maxCohensD ?? double.NaN; set => _maxCohensD = value; }

    /// <inheritdoc/>
    public string? Against { get; set; }

    /// <inheritdoc cref="IPerfTestDeclaration.MinSpeedup"/>
    public double MinSpeedup { get => _minSpeedup ?? double.NaN; set => _minSpeedup = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.MaxSlowdown"/>
    public double MaxSlowdown { get => _maxSlowdown ?? double.NaN; set => _maxSlowdown = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.MinCohensD"/>
    public double MinCohensD { get => _minCohensD ?? double.NaN; set => _minCohensD = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.RecordingProcesses"/>
    public int RecordingProcesses { get => _recordingProcesses ?? -1; set => _recordingProcesses = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.Samples"/>
    public int Samples { get => _samples ?? 0; set => _samples = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.TimeBudgetMs"/>
    public int TimeBudgetMs { get => _timeBudgetMs ?? 0; set => _timeBudgetMs = value; }

    /// <inheritdoc cref="IPerfTestDeclaration.WarmupMs"/>
    public int WarmupMs { get => _warmupMs ?? 0; set => _warmupMs = value; }

    /// <inheritdoc/>
    public string? Fallback { get; set; }

    /// <inheritdoc cref="IPerfTestDeclaration.WhenUnavailable"/>
    public UnavailableCounterPolicy WhenUnavailable { get => _whenUnavailable ?? UnavailableCounterPolicy.Skip; set => _whenUnavailable = value; }

    bool? IPerfTestDeclaration.Baseline => _baseline;

    double? IPerfTestDeclaration.MaxChange => _maxChange;

    double? IPerfTestDeclaration.Confidence => _confidence;

    double? IPerfTestDeclaration.MaxCohensD => _maxCohensD;

    double? IPerfTestDeclaration.MinSpeedup => _minSpeedup;

    double? IPerfTestDeclaration.MaxSlowdown => _maxSlowdown;

    double? IPerfTestDeclaration.MinCohensD => _minCohensD;

    int? IPerfTestDeclaration.RecordingProcesses => _recordingProcesses;

    int? IPerfTestDeclaration.Samples => _samples;

    int? IPerfTestDeclaration.TimeBudgetMs => _timeBudgetMs;

    int? IPerfTestDeclaration.WarmupMs => _warmupMs;

    UnavailableCounterPolicy? IPerfTestDeclaration.WhenUnavailable => _whenUnavailable;

    /// <inheritdoc/>
    public IEnumerable<TestMethod> BuildFrom(IMethodInfo method, Test? suite)
    {
        ArgumentNullException.ThrowIfNull(method);
        yield return PerfNUnit.Build(method, suite, this, [], SourceFilePath, PerfNUnit.TestName);
    }

    /// <inheritdoc/>
    public TestCommand Wrap(TestCommand command) => PerfNUnit.Wrap(command);
}
