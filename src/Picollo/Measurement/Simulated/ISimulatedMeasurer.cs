using System.Collections.Immutable;

namespace Picollo.Measurement.Simulated;

/// <summary>
/// Measures the simulated counters of a measurement (docs/COUNTERS.md, "Simulated counters"). In a perf test's process,
/// the test's simulation worker, a process callgrind runs, measures each region of the test in turn; in that worker,
/// the measurement runs in-process. Set for the current flow by the running test's context (<see cref="SimulatedMeasurers.Current"/>).
/// </summary>
internal interface ISimulatedMeasurer
{
    /// <summary>
    /// Whether this process itself is the simulation worker: a measurement then counts only its simulated counters, and
    /// the rest are the test's process's to measure.
    /// </summary>
    bool IsWorker { get; }

    /// <summary>Measures the simulated counters of the current flow's next region.</summary>
    /// <typeparam name="TLoop">The body's loop.</typeparam>
    /// <param name="options">The measurement's options.</param>
    /// <param name="counters">The simulated counters asked for, canonical names.</param>
    /// <param name="body">The body (run in-process by the worker; the test's process measures the same region in the worker).</param>
    /// <param name="empty">The same loop with an empty body.</param>
    /// <returns>The counts, or why none could be taken.</returns>
    /// <exception cref="PerfSimulationException">
    /// The simulation ran and failed: the body threw, hung or ran out of time under it.
    /// </exception>
    SimulatedMeasurement Measure<TLoop>(PerfOptions options, ImmutableArray<string> counters, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop;

    /// <summary>
    /// Measures a region of the current test again in another process (a recording checks that the counts repeat across
    /// processes before it stores them). Only the test's process can; a worker cannot.
    /// </summary>
    /// <param name="region">The region, as <see cref="SimulatedMeasurement.Region"/> numbers it.</param>
    /// <param name="counters">The simulated counters.</param>
    /// <returns>The counts of that region in the other process, or why there are none.</returns>
    /// <exception cref="PerfSimulationException">The simulation ran and failed.</exception>
    SimulatedMeasurement MeasureAgain(int region, ImmutableArray<string> counters);
}
