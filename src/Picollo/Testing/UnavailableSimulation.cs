using System.Collections.Immutable;
using Picollo.Measurement;
using Picollo.Measurement.Simulated;

namespace Picollo.Testing;

/// <summary>The simulated counters of a test that cannot have a simulation worker: each measurement says why.</summary>
/// <param name="reason">Why, with what to do.</param>
internal sealed class UnavailableSimulation(string reason) : ISimulatedMeasurer
{
    /// <inheritdoc/>
    public bool IsWorker => false;

    /// <inheritdoc/>
    public SimulatedMeasurement Measure<TLoop>(PerfOptions options, ImmutableArray<string> counters, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop => SimulatedMeasurement.Unavailable(counters, reason);

    /// <inheritdoc/>
    public SimulatedMeasurement MeasureAgain(int region, ImmutableArray<string> counters) =>
        SimulatedMeasurement.Unavailable(counters, reason);
}
