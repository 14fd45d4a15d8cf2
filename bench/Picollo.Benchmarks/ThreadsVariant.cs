namespace Picollo.Benchmarks;

/// <summary>
/// One contender of the threads benchmark: a histogram that every writer thread of a
/// <see cref="WriterGroup"/> records into at once. As in <see cref="RecordVariant"/>, the hot loop lives
/// in each subclass's <see cref="Run"/>, where the histogram's concrete type is known.
/// </summary>
internal abstract class ThreadsVariant
{
    /// <summary>The name without the thread count, e.g. "Picollo thread-local u64": 1- and 2-thread runs pair up by it.</summary>
    public abstract string Name { get; }

    /// <summary>Picollo variants are the ones compared against HdrHistogram.NET and held to the goals.</summary>
    public abstract bool IsPicollo { get; }

    /// <summary>Whether concurrent writers must never lose a count (every variant but Picollo single-writer).</summary>
    public abstract bool IsLossless { get; }

    /// <summary>Bytes held by the counters right now (for Picollo thread-local: the accumulator plus one array per writer so far).</summary>
    public abstract long FootprintInBytes { get; }

    /// <summary>Records every value of <paramref name="values"/>, <paramref name="repeats"/> times; called by every writer thread at once.</summary>
    public abstract void Run(long[] values, int repeats);

    /// <summary>The number of values recorded since the last <see cref="Reset"/>; called only while no thread writes.</summary>
    public abstract long ReadTotalCount();

    /// <summary>Clears the counters between runs, outside the timed region, while no thread writes.</summary>
    public abstract void Reset();
}
