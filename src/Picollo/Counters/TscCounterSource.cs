using System.Collections.ObjectModel;

namespace Picollo.Counters;

/// <summary>
/// The time-stamp counter as a counter source: one counter, <c>tsc</c>, in ticks (convert deltas with
/// <see cref="Tsc.Frequency"/>). Where the TSC cannot be read, the descriptor carries the reason and reads write 0.
/// </summary>
public sealed class TscCounterSource : ICounterSource
{
    private static readonly ReadOnlyCollection<CounterDescriptor> s_descriptors =
        Array.AsReadOnly(
            [new CounterDescriptor(CounterNames.Tsc, KnownCounters.Get(CounterNames.Tsc).Unit, CounterKind.Tsc, Tsc.UnsupportedReason)]);

    /// <inheritdoc/>
    public IReadOnlyList<CounterDescriptor> Descriptors => s_descriptors;

    /// <inheritdoc/>
    /// <remarks>
    /// Reads with <see cref="Tsc.ReadEnd"/> (<c>rdtscp; lfence</c>): a boundary ends one sample and starts the
    /// next, so it must keep earlier work before it and later work after it. <c>lfence; rdtsc</c> only does the first.
    /// </remarks>
    public void ReadCumulative(Span<ulong> destination)
        => destination[0] = Tsc.IsSupported ? Tsc.ReadEnd() : 0;

    /// <summary>Nothing to release: the reader is a CPU instruction.</summary>
    public void Dispose()
    {
    }
}
