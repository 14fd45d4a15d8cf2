using Picollo.Measurement;
using Picollo.Measurement.Simulated;

namespace Picollo.Baselines.Judging;

/// <summary>
/// One measurement a judgement took, immutable and tagged by where it came from: a measurement in this process, a fresh
/// process's, or another process's simulated counts. <see cref="JudgementDecision.Decide"/> decides from the list of them.
/// </summary>
/// <param name="Origin">Where it came from, and why it was asked for.</param>
internal sealed record Evidence(EvidenceOrigin Origin)
{
    /// <summary>Gets the measurement in this process, or <see langword="null"/>.</summary>
    public PerfResult? Measured { get; init; }

    /// <summary>Gets the fresh process's measurements, or <see langword="null"/>.</summary>
    public FreshProcessMeasurement? Fresh { get; init; }

    /// <summary>Gets the other process's simulated counts, or <see langword="null"/>.</summary>
    public SimulatedMeasurement? Simulated { get; init; }

    /// <summary>Gets why the simulated counts could not be taken, or <see langword="null"/>.</summary>
    public string? SimulationFailure { get; init; }

    /// <summary>The test's own measurement.</summary>
    /// <param name="result">The measurement.</param>
    /// <returns>The evidence.</returns>
    public static Evidence Test(PerfResult result) => new(EvidenceOrigin.Test) { Measured = result };
}
