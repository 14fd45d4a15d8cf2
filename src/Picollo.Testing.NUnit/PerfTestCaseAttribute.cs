using NUnit.Framework;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using NUnit.Framework.Internal.Commands;

namespace Picollo.Testing.NUnit;

/// <summary>
/// One NUnit 4 performance test per attribute, with its data: the data fills the method's parameters (a trailing
/// <see cref="PerfContext"/> gets no data), and each case has its own baseline file, named after the data
/// (<c>HashPerf.Hash.16.perf.json</c>). The same knobs and behaviour as <see cref="PerfTestAttribute"/>.
/// </summary>
/// <example>
/// <code>
/// [PerfTestCase(16)]
/// [PerfTestCase(4096)]
/// public void Hash(int size, PerfContext perf)
/// {
///     byte[] data = new byte[size];
///     perf.Measure(data, static d => Hasher.Hash(d)).ShouldNotRegress();
/// }
/// </code>
/// </example>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true, Inherited = false)]
public sealed class PerfTestCaseAttribute : NUnitAttribute, ITestBuilder, IImplyFixture, IWrapTestMethod, IPerfTestDeclaration
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

    /// <summary>Declares one case.</summary>
    /// <param name="arguments">The case's data, one value per parameter before the <see cref="PerfContext"/>.</param>
    public PerfTestCaseAttribute(params object?[]? arguments) => Arguments = arguments ?? [null];

    /// <summary>The case's data.</summary>
    public IReadOnlyList<object?> Arguments { get; }

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
        yield return PerfNUnit.Build(method, suite, this, [.. Arguments], sourceFilePath: null, PerfNUnit.CaseTestName(Arguments.Count));
    }

    /// <summary>NUnit calls every <see cref="IWrapTestMethod"/> of the method, once per case attribute: only the first wraps.</summary>
    /// <param name="command">The command to wrap.</param>
    /// <returns>The perf command.</returns>
    public TestCommand Wrap(TestCommand command) => PerfNUnit.Wrap(command);
}
