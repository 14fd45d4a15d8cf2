using Picollo.Measurement.Conditions;

namespace Picollo.Tests.Measurement;

/// <summary>
/// Puts a probe over made-up facts in the place of this process's (<see cref="CoverageProbe.Current"/>) while an adapter
/// test runs (the measurement group's, or SimulationAdapterTests', whose parallel neighbours measure nothing in this
/// process), and puts this process's back: the process itself is never instrumented, since every later
/// measurement in it would be skipped. The real collector is proven end to end in the packaging tests (CoverageTests).
/// </summary>
internal sealed class FakeCoverage : IDisposable
{
    /// <summary>The module the coverlet probe says was rewritten, and the tracker type it found in it.</summary>
    public const string Module = "Acme.Text.dll";

    /// <summary>The tracker coverlet would have injected into <see cref="Module"/>.</summary>
    public const string Tracker = CoverageProbe.CoverletTrackerNamespace + ".Acme.Text_5f1a2b3c-0d4e-4f60-8a7b-9c0d1e2f3a4b";

    private readonly CoverageProbe _saved = CoverageProbe.Current;

    private FakeCoverage(CoverageProbe probe) => CoverageProbe.Current = probe;

    /// <summary>A probe that finds <see cref="Module"/> rewritten by coverlet.</summary>
    public static CoverageProbe CoverletProbe() =>
        new(static _ => null, static () => [], static _ => [(Module, Tracker)]);

    /// <summary>As if coverlet had rewritten <see cref="Module"/>.</summary>
    public static FakeCoverage Coverlet() => new(CoverletProbe());

    public void Dispose() => CoverageProbe.Current = _saved;
}
