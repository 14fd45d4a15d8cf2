using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// Picollo's <see cref="Metrics.HdrHistogram.Record(ulong)"/> with one of the three
/// <see cref="HdrConcurrency"/> modes, configured like the article (relative error 0.0005).
/// </summary>
internal sealed class PicolloThreadsVariant : ThreadsVariant
{
    private readonly Metrics.HdrHistogram _histogram;

    public PicolloThreadsVariant(long maxTrackableValue, HdrConcurrency concurrency, bool uint64Storage)
    {
        HdrHistogramBuilder builder = Metrics.HdrHistogram.Factory
            .WithRelativeError(0.0005)
            .WithMaxTrackableValue((ulong)maxTrackableValue)
            .WithConcurrency(concurrency);
        _histogram = (uint64Storage ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
    }

    public override string Name => $"Picollo {ModeName(_histogram.Concurrency)} u{_histogram.CounterSize * 8}";

    public override bool IsPicollo => true;

    public override bool IsLossless => _histogram.Concurrency != HdrConcurrency.SingleWriter;

    public HdrConcurrency Concurrency => _histogram.Concurrency;

    public int CounterBits => _histogram.CounterSize * 8;

    public override long FootprintInBytes => _histogram.FootprintInBytes;

    public override void Run(long[] values, int repeats)
    {
        Metrics.HdrHistogram histogram = _histogram;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                histogram.Record((ulong)value);
        }
    }

    public override long ReadTotalCount() => (long)_histogram.TotalCount;

    public override void Reset() => _histogram.Reset();

    public static string ModeName(HdrConcurrency concurrency) => concurrency switch
    {
        HdrConcurrency.ThreadLocal => "thread-local",
        HdrConcurrency.Interlocked => "interlocked",
        _ => "single-writer",
    };
}
