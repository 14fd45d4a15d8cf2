namespace Picollo.Testing;

/// <summary>
/// Defaults for every perf test of the assembly, with the knobs and the syntax of <c>[PerfFact]</c> / <c>[PerfTest]</c>; a
/// knob set on a test's own attribute wins. <c>[assembly: PerfDefaults(TimeBudgetMs = 500, Fallback = "cycles->tsc")]</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
public sealed class PerfDefaultsAttribute : Attribute, IPerfTestDeclaration
{
    private bool? _baseline;
    private double? _maxChange;
    private double? _confidence;
    private double? _maxCohensD;
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

    int? IPerfTestDeclaration.RecordingProcesses => _recordingProcesses;

    int? IPerfTestDeclaration.Samples => _samples;

    int? IPerfTestDeclaration.TimeBudgetMs => _timeBudgetMs;

    int? IPerfTestDeclaration.WarmupMs => _warmupMs;

    UnavailableCounterPolicy? IPerfTestDeclaration.WhenUnavailable => _whenUnavailable;
}
