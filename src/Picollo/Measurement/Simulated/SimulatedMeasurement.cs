using System.Collections.Immutable;

namespace Picollo.Measurement.Simulated;

/// <summary>
/// What the simulated part of a measurement counted (docs/COUNTERS.md, "Simulated counters"): per simulated counter the
/// per-sample totals with the empty loop's counts subtracted, the operations per sample, and the simulated machine; or why
/// nothing could be counted.
/// </summary>
/// <param name="OperationsPerSample">Operations per sample; 0 when nothing was counted.</param>
/// <param name="Counters">Per counter, its samples in order, or why it did not count.</param>
/// <param name="Simulator">
/// What the counts depend on (Valgrind, runtime, architecture, instruction set); <see langword="null"/> when nothing was
/// counted.
/// </param>
/// <param name="Notes">What the reader should know: samples a collection ran in, a warmup that did not see final code.</param>
/// <param name="WallTime">How long the simulated part took, the worker's start included.</param>
internal sealed record SimulatedMeasurement(
    long OperationsPerSample,
    ImmutableArray<SimulatedCounterSamples> Counters,
    SimulatorInfo? Simulator,
    ImmutableArray<string> Notes,
    TimeSpan WallTime)
{
    /// <summary>Which of the test's measurements with simulated counters this is, from 0 (the worker's regions).</summary>
    public int Region { get; init; }

    /// <summary>A measurement in which no simulated counter counted, for <paramref name="reason"/>.</summary>
    /// <param name="counters">The counters asked for.</param>
    /// <param name="reason">Why: the reason and the fix, one or more sentences.</param>
    /// <param name="wallTime">The time spent finding out.</param>
    /// <returns>The measurement.</returns>
    public static SimulatedMeasurement Unavailable(IEnumerable<string> counters, string reason, TimeSpan wallTime = default) =>
        new(0, [.. counters.Select(c => new SimulatedCounterSamples(c, [], 0, reason))], null, [], wallTime);
}
