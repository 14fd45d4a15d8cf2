using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// Picollo's <see cref="Metrics.HdrHistogram.Record(ulong)"/>, or a <see cref="HdrHistogramWriter"/> that each
/// writer thread gets at the start of its run, with one of the three <see cref="HdrConcurrency"/> modes,
/// configured like the article (relative error 0.0005).
/// </summary>
internal sealed class PicolloThreadsVariant : ThreadsVariant
{
    private readonly Metrics.HdrHistogram _histogram;
    private readonly bool _writer;

    public PicolloThreadsVariant(long maxTrackableValue, HdrConcurrency concurrency, bool uint64Storage, bool writer = false)
    {
        _writer = writer;
        HdrHistogramBuilder builder = Metrics.HdrHistogram.Factory
            .WithRelativeError(0.0005)
            .WithMaxTrackableValue((ulong)maxTrackableValue)
            .WithConcurrency(concurrency);
        _histogram = (uint64Storage ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
    }

    public override string Name => $"Picollo {ModeName(_histogram.Concurrency)}{(_writer ? " writer" : "")} u{_histogram.CounterSize * 8}";

    public override bool IsPicollo => true;

    public override bool IsLossless => _histogram.Concurrency != HdrConcurrency.SingleWriter;

    public HdrConcurrency Concurrency => _histogram.Concurrency;

    /// <summary>Whether the writers record through <see cref="Metrics.HdrHistogram.GetWriter"/> rather than <see cref="Metrics.HdrHistogram.Record(ulong)"/>.</summary>
    public bool IsWriter => _writer;

    public int CounterBits => _histogram.CounterSize * 8;

    public override long FootprintInBytes => _histogram.FootprintInBytes;

    public override void Run(long[] values, int repeats)
    {
        if (_writer)
            RunWriter(_histogram.GetWriter(), values, repeats);
        else
            RunRecord(_histogram, values, repeats);
    }

    public override long ReadTotalCount() => (long)_histogram.TotalCount;

    public override void Reset() => _histogram.Reset();

    // Two loops, so neither's profile (dynamic PGO) mixes with the other's.
    private static void RunRecord(Metrics.HdrHistogram histogram, long[] values, int repeats)
    {
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                histogram.Record((ulong)value);
        }
    }

    private static void RunWriter(HdrHistogramWriter writer, long[] values, int repeats)
    {
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                writer.Record((ulong)value);
        }
    }

    public static string ModeName(HdrConcurrency concurrency) => concurrency switch
    {
        HdrConcurrency.ThreadLocal => "thread-local",
        HdrConcurrency.Interlocked => "interlocked",
        _ => "single-writer",
    };
}
