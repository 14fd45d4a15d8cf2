using Picollo.Measurement.Conditions;

namespace Picollo.Measurement.Engine;

/// <summary>What the sampling stage recorded and how it ran.</summary>
/// <param name="Readings">The body's samples.</param>
/// <param name="Jit">Methods JIT-compiled while the samples ran, process-wide and on the measuring thread.</param>
/// <param name="UsedNoGCRegion">Whether the samples ran inside a no-GC region from start to end.</param>
/// <param name="NoGCRegionNote">
/// Why no no-GC region was used when one was asked for, or that the GC left it; <see langword="null"/> otherwise.
/// </param>
internal readonly record struct SamplingOutcome(SampleReadings Readings, JitCounts Jit, bool UsedNoGCRegion, string? NoGCRegionNote);
