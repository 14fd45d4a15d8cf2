namespace Picollo.Measurement.Simulated;

/// <summary>One simulated counter of a <see cref="SimulatedMeasurement"/>.</summary>
/// <param name="Name">The counter's canonical name, e.g. <c>sim-instructions</c>.</param>
/// <param name="Samples">
/// The per-sample totals with <paramref name="Overhead"/> subtracted, in sampling order; empty when unavailable.
/// </param>
/// <param name="Overhead">What the same loop with an empty body counted per sample, subtracted from every sample.</param>
/// <param name="UnavailableReason">Why it did not count, with the fix; <see langword="null"/> when it did.</param>
internal sealed record SimulatedCounterSamples(string Name, ulong[] Samples, ulong Overhead, string? UnavailableReason);
