namespace Picollo.Benchmarks;

/// <summary>
/// One contender of the record benchmark. The hot loop lives in each subclass's <see cref="Run"/>, where
/// the histogram's concrete type is known and its record method is inlined; the virtual call happens
/// once per run, not once per value.
/// </summary>
internal abstract class RecordVariant
{
    public abstract string Name { get; }

    /// <summary>"32" or "64": floor ratios compare variants of the same counter width.</summary>
    public abstract int CounterBits { get; }

    public abstract long FootprintInBytes { get; }

    /// <summary>Records every value of <paramref name="values"/>, <paramref name="repeats"/> times.</summary>
    public abstract void Run(long[] values, int repeats);

    /// <summary>Clears the counters between runs (outside the timed region), so 32-bit buckets never wrap.</summary>
    public abstract void Reset();
}
