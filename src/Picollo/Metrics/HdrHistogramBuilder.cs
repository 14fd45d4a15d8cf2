namespace Picollo.Metrics;

/// <summary>
/// Immutable fluent options for a new <see cref="HdrHistogram"/>; start from <see cref="HdrHistogram.Factory"/>.
/// </summary>
/// <remarks>Each <c>With…</c> call returns a new builder, so a configured builder can be shared and reused.</remarks>
/// <example>
/// A latency histogram with every value within 1%, storage trimmed to 10 µs … 30 ms (in ns), any thread recording:
/// <code>
/// HdrHistogram latency = HdrHistogram.Factory
///     .WithRelativeError(0.01)
///     .WithMinTrackableValue(10_000)
///     .WithMaxTrackableValue(30_000_000)
///     .WithConcurrency(HdrConcurrency.ThreadLocal)
///     .Create();
/// latency.Record(21_345);                        // out-of-range values count as overflow, never throw
/// Console.WriteLine(latency.GetSummary().P99);   // "P99=21,376 [bucket / buckets]: [from, to) count"
/// </code>
/// </example>
public readonly record struct HdrHistogramBuilder
{
    /// <summary>The requested relative error; see <see cref="HdrBuckets(double)"/> for clamping.</summary>
    public double RelativeError { get; private init; }

    /// <summary><see langword="true"/> for 64-bit bucket counters (default), <see langword="false"/> for 32-bit ones.</summary>
    public bool UInt64Storage { get; private init; }

    /// <summary>How several threads may record: <see cref="HdrConcurrency.SingleWriter"/> unless changed.</summary>
    public HdrConcurrency Concurrency { get; private init; }

    /// <summary>The smallest value stored in its own bucket; smaller values go to the overflow counter.</summary>
    public ulong MinTrackableValue { get; private init; }

    /// <summary>The largest value stored in its own bucket; larger values go to the overflow counter.</summary>
    public ulong MaxTrackableValue { get; private init; }

    /// <summary>Creates the default options: relative error 0.1%, 64-bit counters, the whole <see cref="ulong"/> range.</summary>
    public HdrHistogramBuilder()
    {
        RelativeError = HdrBuckets.DefaultRelativeError;
        UInt64Storage = true;
        MaxTrackableValue = ulong.MaxValue;
    }

    /// <summary>Sets the tolerated relative error of every recorded value (clamped to [1e-6, 0.1]).</summary>
    /// <param name="relativeError">For example 0.01 for 1%, 0.0005 for HdrHistogram's 3 significant digits.</param>
    /// <returns>A builder with the new relative error.</returns>
    public HdrHistogramBuilder WithRelativeError(double relativeError) => this with { RelativeError = relativeError };

    /// <summary>
    /// Uses 32-bit bucket counters: half the footprint. A bucket wraps silently past 4,294,967,295 counts
    /// (the hot path does not check), so use it only when no single bucket can see that many values.
    /// </summary>
    /// <returns>A builder with 32-bit storage.</returns>
    public HdrHistogramBuilder WithUInt32Storage() => this with { UInt64Storage = false };

    /// <summary>Uses 64-bit bucket counters (the default).</summary>
    /// <returns>A builder with 64-bit storage.</returns>
    public HdrHistogramBuilder WithUInt64Storage() => this with { UInt64Storage = true };

    /// <summary>Chooses how several threads may record (see <see cref="HdrConcurrency"/>).</summary>
    /// <param name="concurrency">Single writer (default), interlocked or thread-local.</param>
    /// <returns>A builder with the new concurrency mode.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="concurrency"/> is not a defined mode.</exception>
    public HdrHistogramBuilder WithConcurrency(HdrConcurrency concurrency) => Enum.IsDefined(concurrency)
        ? this with { Concurrency = concurrency }
        : throw new ArgumentOutOfRangeException(nameof(concurrency), concurrency, "Expected SingleWriter, Interlocked or ThreadLocal.");

    /// <summary>
    /// Trims the storage below this value. Precise only to the bucket width: the tracked range is
    /// guaranteed to include it and may start slightly lower.
    /// </summary>
    /// <param name="minTrackableValue">The smallest value expected.</param>
    /// <returns>A builder with the new lower bound.</returns>
    public HdrHistogramBuilder WithMinTrackableValue(ulong minTrackableValue) => this with { MinTrackableValue = minTrackableValue };

    /// <summary>
    /// Trims the storage above this value. Precise only to the bucket width: the tracked range is
    /// guaranteed to include it and may end slightly higher.
    /// </summary>
    /// <param name="maxTrackableValue">The largest value expected.</param>
    /// <returns>A builder with the new upper bound.</returns>
    public HdrHistogramBuilder WithMaxTrackableValue(ulong maxTrackableValue) => this with { MaxTrackableValue = maxTrackableValue };

    /// <summary>Allocates the histogram.</summary>
    /// <returns>A new, empty histogram.</returns>
    /// <exception cref="ArgumentException">The min trackable value is greater than the max trackable value.</exception>
    public HdrHistogram Create()
    {
        if (MinTrackableValue > MaxTrackableValue)
        {
            throw new ArgumentException(MetricsMessages.MinAboveMax(MinTrackableValue, MaxTrackableValue), nameof(MinTrackableValue));
        }

        return new HdrHistogram(new HdrBuckets(RelativeError), MinTrackableValue, MaxTrackableValue, UInt64Storage, Concurrency);
    }
}
