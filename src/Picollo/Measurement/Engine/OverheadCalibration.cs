using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The overhead calibration stage: the empty body through the same sample loop, with the same operations per sample
/// and the same boundary reads as the samples, so what it counts is exactly what the samples pay besides the body.
/// </summary>
internal sealed class OverheadCalibration
{
    private readonly SampleReadings _readings;

    private OverheadCalibration(SampleReadings readings) => _readings = readings;

    /// <summary>Takes <paramref name="samples"/> samples of <paramref name="empty"/>.</summary>
    internal static OverheadCalibration Run<TLoop>(TLoop empty, CounterSet set, long operations, int samples)
        where TLoop : struct, IOperationLoop
    {
        var readings = new SampleReadings(samples, set.Count);
        Sampling.SettleGC();
        readings.Taken = Sampling.Loop(empty, set, operations, readings, samples, long.MaxValue, CancellationToken.None);
        return new OverheadCalibration(readings);
    }

    /// <summary>The overhead of the counter at <paramref name="slot"/>: its calibration samples and their statistics.</summary>
    /// <param name="slot">The counter's index in the set's read span.</param>
    /// <param name="histograms">Creates the calibration's histogram with the run's precision.</param>
    internal CounterOverhead For(int slot, HdrHistogramBuilder histograms)
    {
        int count = _readings.Taken;
        var samples = new ulong[count];
        HdrHistogram histogram = histograms.Create();
        double sum = 0;
        for (int s = 0; s < count; s++)
        {
            samples[s] = _readings.Delta(s, slot);
            histogram.Record(samples[s]);
            sum += samples[s];
        }

        Array.Sort(samples);
        double mean = sum / count;
        double variance = 0;
        foreach (ulong value in samples)
            variance += (value - mean) * (value - mean);

        // The lower median: a whole count, so subtracting it keeps deterministic counters exact.
        ulong median = samples[(count - 1) / 2];
        return new CounterOverhead(histogram, median, samples[0], samples[^1], mean, Math.Sqrt(variance / count), count);
    }
}
