using System.Collections.ObjectModel;

namespace Picollo.Counters;

/// <summary>
/// The runtime's high-resolution clock (<see cref="System.Diagnostics.Stopwatch"/>) as a counter source: one counter,
/// <c>clock</c>, in nanoseconds. It counts on every OS and architecture .NET runs on, so it is the time counter of the
/// default set wherever <c>tsc</c> cannot count (docs/COUNTERS.md, "The portable clock").
/// </summary>
/// <remarks>
/// The clock's rate can be coarse (10 MHz, 100 ns per tick, on Windows), but it is read only at sample boundaries, and
/// the pilot makes every sample at least 100 of its steps long, so its rounding stays under 1 % of a sample.
/// </remarks>
public sealed class ClockCounterSource : ICounterSource
{
    private static readonly ReadOnlyCollection<CounterDescriptor> s_descriptors =
        Array.AsReadOnly([new CounterDescriptor(CounterNames.Clock, KnownCounters.Get(CounterNames.Clock).Unit, CounterKind.Clock)]);

    /// <inheritdoc/>
    public IReadOnlyList<CounterDescriptor> Descriptors => s_descriptors;

    /// <inheritdoc/>
    /// <remarks>One <see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>, scaled to nanoseconds; no allocation.</remarks>
    public void ReadCumulative(Span<ulong> destination) => destination[0] = PortableClock.ReadNanoseconds();

    /// <summary>Nothing to release: the reader is the runtime's clock.</summary>
    public void Dispose()
    {
    }
}
