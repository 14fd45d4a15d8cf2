using HdrHistogram;

namespace Picollo.Benchmarks;

/// <summary>
/// HdrHistogram.NET's <c>Recorder.RecordValue</c> over <c>LongConcurrentHistogram</c>s (3 significant
/// digits). The recorder's own WriterReaderPhaser only keeps writers off the histogram a reader is
/// flipping out; writers still share the active histogram, so it must be a concurrent type (what
/// <c>HistogramFactory…WithThreadSafeWrites().WithThreadSafeReads()</c> builds too). Per value: the
/// recorder's two phaser increments plus the concurrent histogram's four interlocked operations.
/// </summary>
internal sealed class RecorderThreadsVariant : ThreadsVariant
{
    private readonly Recorder _recorder;
    private readonly long _footprintInBytes;
    private HistogramBase? _interval;

    public RecorderThreadsVariant(long maxTrackableValue)
    {
        _recorder = new Recorder(
            lowestDiscernibleValue: 1,
            highestTrackableValue: maxTrackableValue,
            numberOfSignificantValueDigits: 3,
            histogramFactory: (instanceId, lowest, highest, digits) => new LongConcurrentHistogram(instanceId, lowest, highest, digits));

        // The recorder holds an active and an inactive histogram; it exposes no footprint of its own.
        _footprintInBytes = 2 * new LongConcurrentHistogram(1, maxTrackableValue, 3).GetEstimatedFootprintInBytes();
    }

    public override string Name => "HdrHistogram.NET Recorder";

    public override bool IsPicollo => false;

    public override bool IsLossless => true;

    public override long FootprintInBytes => _footprintInBytes;

    public override void Run(long[] values, int repeats)
    {
        Recorder recorder = _recorder;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                recorder.RecordValue(value);
        }
    }

    /// <summary>Takes the interval histogram (recycling the previous one), which also starts a new interval.</summary>
    public override long ReadTotalCount()
    {
        _interval = _recorder.GetIntervalHistogram(_interval);
        return _interval.TotalCount;
    }

    public override void Reset() => _recorder.Reset();
}
