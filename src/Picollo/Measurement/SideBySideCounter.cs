using Picollo.Counters;

namespace Picollo.Measurement;

/// <summary>One counter of a <see cref="SideBySideRecord"/>: its samples in order, each the count over one sample's operations.</summary>
/// <param name="Name">The counter's name.</param>
/// <param name="Unit">Its unit.</param>
/// <param name="Kind">Its kind.</param>
/// <param name="UnavailableReason">Why it did not count; <see langword="null"/> when it did.</param>
/// <param name="Samples">The samples, overhead subtracted.</param>
internal sealed record SideBySideCounter(
    string Name, string Unit, CounterKind Kind, string? UnavailableReason, IReadOnlyList<ulong> Samples)
{
    /// <summary>Whether it counted.</summary>
    public bool IsAvailable => UnavailableReason is null;
}
