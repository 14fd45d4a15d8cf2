using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The result-building stage: per requested counter, its samples with the calibrated overhead subtracted, their
/// histogram and the counter's multiplexing ratio; or the reason it did not count.
/// </summary>
internal static class ResultBuilder
{
    /// <summary>Builds the result of a run.</summary>
    /// <param name="options">The run's options (the histograms' precision).</param>
    /// <param name="plan">The counters, in request order, and their slots.</param>
    /// <param name="calibration">The overhead calibration.</param>
    /// <param name="samples">The body's samples.</param>
    /// <param name="run">How the run went.</param>
    internal static PerfResult Build(
        PerfOptions options, CounterPlan plan, OverheadCalibration calibration, SampleReadings samples, PerfRunInfo run)
    {
        HdrHistogramBuilder histograms = HdrHistogram.Factory.WithRelativeError(options.RelativeError);
        var counters = new CounterResult[plan.Descriptors.Length];
        for (int i = 0; i < counters.Length; i++)
        {
            CounterDescriptor descriptor = plan.Descriptors[i];
            int slot = plan.Slots[i];
            if (slot < 0)
            {
                counters[i] = CounterResult.Unavailable(descriptor, options.RelativeError);
                continue;
            }

            double multiplexing =
                descriptor.Kind is CounterKind.Hardware or CounterKind.HardwareCache or CounterKind.Raw or CounterKind.Software
                    ? MultiplexingRatio(plan, descriptor.Name)
                    : double.NaN;
            CounterOverhead overhead = calibration.For(slot, histograms);
            counters[i] = Counter(descriptor, slot, run.OperationsPerSample, samples, overhead, histograms, multiplexing);
        }

        return new PerfResult(counters, options, run);
    }

    private static CounterResult Counter(
        CounterDescriptor descriptor,
        int slot,
        long operations,
        SampleReadings samples,
        CounterOverhead overhead,
        HdrHistogramBuilder histograms,
        double multiplexing)
    {
        var values = new ulong[samples.Taken];
        HdrHistogram histogram = histograms.Create();
        for (int s = 0; s < values.Length; s++)
        {
            ulong delta = samples.Delta(s, slot);
            values[s] = delta > overhead.Median ? delta - overhead.Median : 0;
            histogram.Record(values[s]);
        }

        return new CounterResult(descriptor, operations, values, histogram, overhead, multiplexing);
    }

    private static double MultiplexingRatio(CounterPlan plan, string name)
    {
        if (plan.Session is not { } session)
            return double.NaN;
        foreach (PerfEvents.PerfEventCounter counter in session.Counters)
        {
            // Descriptor names are the perf spellings the plan uses (task-clock); counter.Name is the display name.
            if (string.Equals(counter.Descriptor.Name, name, StringComparison.OrdinalIgnoreCase))
                return counter.MultiplexingRatio;
        }

        return double.NaN;
    }
}
