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
public sealed class PerfFactAttribute : FactAttribute, ITraitAttribute, IPerfTestDeclaration
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
    /// <param name="sourceLineNumber">Filled in by the compiler.</param>
    public PerfFactAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
    }

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

    /// <summary>The trait <c>Category=Performance</c>.</summary>
    /// <returns>The trait.</returns>
    public IReadOnlyCollection<KeyValuePair<string, string>> GetTraits() => [new(PerfXunit.CategoryTrait, PerfXunit.PerformanceCategory)];
}
