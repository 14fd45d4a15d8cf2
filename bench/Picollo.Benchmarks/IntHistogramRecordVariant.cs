using HdrHistogram;

namespace Picollo.Benchmarks;

/// <summary>
/// HdrHistogram.NET's <c>IntHistogram.RecordValue</c> (32-bit counters) with 3 significant digits: the
/// article's single-threaded footprints (98,816 B at 7,716,549,600) are this type's, so it is the
/// like-for-like reference of Picollo's 32-bit storage.
/// </summary>
internal sealed class IntHistogramRecordVariant : RecordVariant
{
    private readonly IntHistogram _histogram;

    public IntHistogramRecordVariant(long maxTrackableValue) =>
        _histogram = new IntHistogram(highestTrackableValue: maxTrackableValue, numberOfSignificantValueDigits: 3);

    public override string Name => "HdrHistogram.NET Int";

    public override int CounterBits => 32;

    public override long FootprintInBytes => _histogram.GetEstimatedFootprintInBytes();

    public override void Run(long[] values, int repeats)
    {
        IntHistogram histogram = _histogram;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                histogram.RecordValue(value);
        }
    }

    public override void Reset() => _histogram.Reset();
}
