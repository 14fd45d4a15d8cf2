namespace Picollo.Counters;

/// <summary>
/// A set of counters read together at each sample boundary: a perf_event group, the TSC, the .NET runtime
/// counters. The measurement engine reads every source of a run back to back at each boundary and
/// records the deltas between boundaries.
/// </summary>
public interface ICounterSource : IDisposable
{
    /// <summary>The counters of this source, in the order <see cref="ReadCumulative"/> writes them.</summary>
    IReadOnlyList<CounterDescriptor> Descriptors { get; }

    /// <summary>
    /// Writes the current cumulative value of every counter into <paramref name="destination"/> (one per
    /// descriptor, same order). Must not allocate; an unavailable counter writes 0 and is marked so by
    /// its descriptor, never silently.
    /// </summary>
    /// <param name="destination">At least <see cref="Descriptors"/>.Count long.</param>
    void ReadCumulative(Span<ulong> destination);
}
