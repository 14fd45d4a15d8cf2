using Picollo.Counters;

namespace Picollo.Measurement.Engine;

/// <summary>One counter of a <see cref="PairedRecord"/>: its samples in order, each the count over one sample's operations.</summary>
/// <param name="Name">The counter's name.</param>
/// <param name="Unit">Its unit.</param>
/// <param name="Kind">Its kind.</param>
/// <param name="UnavailableReason">Why it did not count; <see langword="null"/> when it did.</param>
/// <param name="Samples">The samples, overhead subtracted.</param>
internal sealed record PairedRecordCounter(
    string Name, string Unit, CounterKind Kind, string? UnavailableReason, IReadOnlyList<ulong> Samples)
{
    /// <summary>
    /// The operations in each of its samples when they are not the record's (<see cref="PairedRecord.OperationsPerSample"/>):
    /// a simulated counter's samples come from its worker, with operations of their own; <see langword="null"/> otherwise.
    /// </summary>
    public long? OperationsPerSample { get; init; }

    /// <summary>Whether it counted.</summary>
    public bool IsAvailable => UnavailableReason is null;
}
