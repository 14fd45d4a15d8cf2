namespace Picollo.Measurement.Engine;

/// <summary>What the pilot measured and chose.</summary>
/// <param name="BoundaryNanoseconds">One sample boundary: one read of every counter.</param>
/// <param name="OperationNanoseconds">One operation's wall time.</param>
/// <param name="BytesPerOperation">One operation's allocation on the measuring thread, which sizes the no-GC region.</param>
/// <param name="OperationsPerSample">The operations per sample: as set in the options, or chosen.</param>
/// <param name="IsBoundByTimeBudget">
/// Whether the time budget capped the choice below what a boundary cost under <see cref="Pilot.BoundaryShare"/> needs.
/// </param>
internal readonly record struct PilotOutcome(
    double BoundaryNanoseconds, double OperationNanoseconds, double BytesPerOperation, long OperationsPerSample, bool IsBoundByTimeBudget);
