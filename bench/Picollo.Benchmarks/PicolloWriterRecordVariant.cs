using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// Picollo's <see cref="HdrHistogramWriter.Record(ulong)"/>: a single-writer histogram configured like
/// <see cref="PicolloRecordVariant"/>, recorded through a writer held in a local of the loop.
/// </summary>
internal sealed class PicolloWriterRecordVariant : RecordVariant
{
    private readonly Metrics.HdrHistogram _histogram;

    public PicolloWriterRecordVariant(long maxTrackableValue, bool uint64Storage) =>
        _histogram = PicolloRecordVariant.CreateHistogram(maxTrackableValue, uint64Storage);

    public override string Name => $"Writer u{CounterBits}";

    public override int CounterBits => _histogram.CounterSize * 8;

    public override long FootprintInBytes => _histogram.FootprintInBytes;

    public override void Run(long[] values, int repeats)
    {
        HdrHistogramWriter writer = _histogram.GetWriter();
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                writer.Record((ulong)value);
        }
    }

    public override void Reset() => _histogram.Reset();
}
