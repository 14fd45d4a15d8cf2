namespace Picollo.Testing;

/// <summary>
/// Defaults for every perf test of the assembly, with the knobs and the syntax of <c>[PerfFact]</c> / <c>[PerfTest]</c>; a
/// knob set on a test's own attribute wins. <c>[assembly: PerfDefaults(TimeBudgetMs = 500, Fallback = "cycles->tsc")]</c>.
/// <c>Against</c> and <c>MinSpeedup</c> are one test's claim about its own body and are not here; <see cref="MaxSlowdown"/>
/// and <see cref="MinCohensD"/> are the defaults of the tests that declare <c>Against</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
public sealed class PerfDefaultsAttribute : Attribute, IPerfTestDeclaration
{
    private bool? _baseline;
    private double? _maxChange;
    private double? _confidence;
    private double? _maxCohensD;
    private double? _maxSlowdown;
    private double? _minCohensD;
    private int? _recordingProcesses;
    private int? _samples;
    private int? _timeBudgetMs;
    private int? _warmupMs;
    private UnavailableCounterPolicy? _whenUnavailable;

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

    // A reference and a speed-up are one test's claim about its own body: never assembly-wide.
    string? IPerfTestDeclaration.Against => null;

    double? IPerfTestDeclaration.MinSpeedup => null;

    double? IPerfTestDeclaration.MaxSlowdown => _maxSlowdown;

    double? IPerfTestDeclaration.MinCohensD => _minCohensD;

    int? IPerfTestDeclaration.RecordingProcesses => _recordingProcesses;

    int? IPerfTestDeclaration.Samples => _samples;

    int? IPerfTestDeclaration.TimeBudgetMs => _timeBudgetMs;

    int? IPerfTestDeclaration.WarmupMs => _warmupMs;

    UnavailableCounterPolicy? IPerfTestDeclaration.WhenUnavailable => _whenUnavailable;
}
