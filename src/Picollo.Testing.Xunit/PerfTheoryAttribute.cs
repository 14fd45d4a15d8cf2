using System.Runtime.CompilerServices;
using Xunit;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// An xunit.v3 performance theory: one perf test per data row (<c>[InlineData]</c>, <c>[MemberData]</c>, ...), each with its
/// own baseline file named after the row's data. The method is the measured operation with the row's values bound once,
/// or it takes a trailing <see cref="PerfContext"/> that the data does not fill.
/// </summary>
/// <remarks>
/// <para>
/// xunit.analyzers count a required trailing <see cref="PerfContext"/> as a parameter the data must fill (xUnit1009).
/// Declare it optional, <c>PerfContext perf = null!</c>: the row leaves it out and Picollo passes the test's context.
/// Or take no <see cref="PerfContext"/> and use <see cref="PerfContext.Current"/>.
/// </para>
/// <para>Everything else is as for <see cref="PerfFactAttribute"/>.</para>
/// </remarks>
/// <example>
/// <code>
/// [PerfTheory]
/// [InlineData(16)]
/// [InlineData(4096)]
/// public ulong Hash(int size) => Hasher.Hash(size);                     // body as operation, size bound once per row
///
/// [PerfTheory(Baseline = true)]
/// [InlineData(16)]
/// [InlineData(4096)]
/// public void HashBuffer(int size, PerfContext perf = null!)
/// {
///     byte[] buffer = new byte[size];                                    // not measured
///     perf.Measure(buffer, static b => Hasher.Hash(b));
/// }
/// </code>
/// </example>
[XunitTestCaseDiscoverer(typeof(PerfTheoryDiscoverer))]
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed class PerfTheoryAttribute : TheoryAttribute, ITraitAttribute, IPerfTestDeclaration
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
    public PerfTheoryAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
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
