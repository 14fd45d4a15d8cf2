using HdrHistogram;

namespace Picollo.Benchmarks;

/// <summary>
/// HdrHistogram.NET's <c>LongConcurrentHistogram.RecordValue</c> with 3 significant digits. Per value it
/// enters and exits its WriterReaderPhaser (two interlocked increments of shared epochs) and increments
/// the bucket and the shared total count atomically: four interlocked operations, three of them on
/// locations every writer hits.
/// </summary>
internal sealed class ConcurrentHistogramThreadsVariant : ThreadsVariant
{
    private readonly LongConcurrentHistogram _histogram;

    public ConcurrentHistogramThreadsVariant(long maxTrackableValue) =>
        _histogram = new LongConcurrentHistogram(lowestTrackableValue: 1, highestTrackableValue: maxTrackableValue, numberOfSignificantValueDigits: 3);

    public override string Name => "HdrHistogram.NET LongConcurrentHistogram";

    public override bool IsPicollo => false;

    public override bool IsLossless => true;

    public override long FootprintInBytes => _histogram.GetEstimatedFootprintInBytes();

    public override void Run(long[] values, int repeats)
    {
        LongConcurrentHistogram histogram = _histogram;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                histogram.RecordValue(value);
        }
    }

    public override long ReadTotalCount() => _histogram.TotalCount;

    public override void Reset() => _histogram.Reset();
}
