using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>Picollo's <see cref="Metrics.HdrHistogram.Record(ulong)"/>, configured like the article (relative error 0.0005).</summary>
internal sealed class PicolloRecordVariant : RecordVariant
{
    private readonly Metrics.HdrHistogram _histogram;

    public PicolloRecordVariant(long maxTrackableValue, bool uint64Storage) =>
        _histogram = CreateHistogram(maxTrackableValue, uint64Storage);

    public Metrics.HdrHistogram Histogram => _histogram;

    public override string Name => $"Picollo u{CounterBits}";

    public override int CounterBits => _histogram.CounterSize * 8;

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

    public override void Reset() => _histogram.Reset();

    /// <summary>The article's configuration: relative error 0.0005, the case's max trackable value, one writer.</summary>
    public static Metrics.HdrHistogram CreateHistogram(long maxTrackableValue, bool uint64Storage)
    {
        HdrHistogramBuilder builder = Metrics.HdrHistogram.Factory.WithRelativeError(0.0005).WithMaxTrackableValue((ulong)maxTrackableValue);
        return (uint64Storage ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
    }
}
