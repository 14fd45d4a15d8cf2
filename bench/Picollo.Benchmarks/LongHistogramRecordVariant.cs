using HdrHistogram;

namespace Picollo.Benchmarks;

/// <summary>HdrHistogram.NET's <c>LongHistogram.RecordValue</c> (64-bit counters) with 3 significant digits.</summary>
internal sealed class LongHistogramRecordVariant : RecordVariant
{
    private readonly LongHistogram _histogram;

    // Lowest discernible value 1 is the two-argument constructor's default; it is valid for every max here.
    public LongHistogramRecordVariant(long maxTrackableValue) =>
        _histogram = new LongHistogram(highestTrackableValue: maxTrackableValue, numberOfSignificantValueDigits: 3);

    public override string Name => "HdrHistogram.NET";

    public override int CounterBits => 64;

    public override long FootprintInBytes => _histogram.GetEstimatedFootprintInBytes();

    public override void Run(long[] values, int repeats)
    {
        LongHistogram histogram = _histogram;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long value in values)
                histogram.RecordValue(value);
        }
    }

    public override void Reset() => _histogram.Reset();
}
