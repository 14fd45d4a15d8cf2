namespace Picollo.Counters;

/// <summary>
/// What Picollo knows about a counter beyond its readings: its unit, whether it is deterministic (compared exactly) or
/// noisy (compared statistically), whether it measures time, how far its values travel between machines, and whether
/// it is measured by default. One row of <see cref="KnownCounters"/>, or derived from the counter's kind for a counter
/// the table does not name (a raw PMU event, a cache event).
/// </summary>
/// <param name="Name">The canonical name.</param>
/// <param name="Unit">The unit of one count.</param>
/// <param name="Kind">The source family.</param>
/// <param name="IsDeterministic">
/// Counts the same on every run of the same code (allocated bytes, GC and JIT counts without background GC): any change
/// is real, so it is compared exactly and shown exactly, with no effect size.
/// </param>
/// <param name="IsTimeLike">Measures elapsed or CPU time (cycles, TSC, task-clock): the noisiest family.</param>
/// <param name="IsOccasional">
/// Counts events that land in some samples and not in others (garbage collections, lock contentions, page faults): a
/// sample's median is 0 or 1 by chance, so what moves with the code is the mean, the events per operation.
/// </param>
/// <param name="Portability">Which baseline entries of other machines its values may be compared with.</param>
/// <param name="IsDefault">Part of the set measured when a run names no counters.</param>
internal sealed record CounterTraits(
    string Name,
    string Unit,
    CounterKind Kind,
    bool IsDeterministic,
    bool IsTimeLike,
    bool IsOccasional,
    CounterPortability Portability,
    bool IsDefault);
