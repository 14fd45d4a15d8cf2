using System.Collections.Immutable;
using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Measurement.Simulated;

/// <summary>
/// Turns the simulated part of a measurement into counter results: merged into the test process's own measurement, whose
/// simulated counters the engine could only list as not counted, or, in the simulation worker, the whole result.
/// </summary>
internal static class SimulatedResults
{
    /// <summary>The canonical names of the simulated counters <paramref name="options"/> asks for, in request order.</summary>
    public static ImmutableArray<string> Requested(PerfOptions options) =>
        [.. options.EffectiveCounters.Select(KnownCounters.SimulatedName).OfType<string>().Distinct(StringComparer.Ordinal)];

    /// <summary>
    /// <paramref name="native"/> with its simulated counters replaced by <paramref name="simulated"/>'s, and the notes that
    /// say how they were counted.
    /// </summary>
    public static PerfResult Merge(PerfResult native, SimulatedMeasurement simulated)
    {
        var counters = native.Counters
            .Select(c => c.Kind == CounterKind.Simulated ? Counter(c.Name, simulated, native.Options.RelativeError) : c)
            .ToList();
        var notes = native.Run.Notes.ToList();
        if (simulated.Simulator is { } simulator)
        {
            notes.Add(MeasurementMessages.SimulatedRun(
                SampleCount(simulated), simulated.OperationsPerSample, simulator.ToString(), simulated.WallTime));
        }

        notes.AddRange(simulated.Notes);
        return new PerfResult(counters, native.Options, native.Run with { Notes = notes.AsReadOnly(), Simulation = simulated });
    }

    /// <summary>
    /// In the simulation worker, the result of a measurement: its simulated counters, and the others listed as the test
    /// process's to measure.
    /// </summary>
    public static PerfResult InWorker(PerfOptions options, SimulatedMeasurement simulated)
    {
        var counters = new List<CounterResult>();
        foreach (string name in options.EffectiveCounters.Distinct(StringComparer.OrdinalIgnoreCase))
        {
            counters.Add(KnownCounters.SimulatedName(name) is { } canonical
                ? Counter(canonical, simulated, options.RelativeError)
                : CounterResult.Unavailable(
                    new CounterDescriptor(name, "events", CounterKind.Software, MeasurementMessages.MeasuredByTheTestProcess(name)),
                    options.RelativeError));
        }

        var run = new PerfRunInfo
        {
            OperationsPerSample = simulated.OperationsPerSample,
            SampleCount = SampleCount(simulated),
            WallTime = simulated.WallTime,
            TimestampUtc = DateTime.UtcNow,
            WarmupEnd = WarmupEnd.JitQuiet,
            Notes = simulated.Notes,
            Simulation = simulated,
        };
        return new PerfResult(counters, options, run);
    }

    /// <summary>The result of one simulated counter: its samples and histogram, or why it did not count.</summary>
    public static CounterResult Counter(string name, SimulatedMeasurement simulated, double relativeError)
    {
        SimulatedCounterSamples? samples = simulated.Counters.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.Ordinal));
        if (samples is null || samples.UnavailableReason is not null || samples.Samples.Length == 0)
        {
            string reason = samples?.UnavailableReason ?? MeasurementMessages.SimulatedNotMeasuredHere(name);
            return CounterResult.Unavailable(new CounterDescriptor(name, "events", CounterKind.Simulated, reason), relativeError);
        }

        HdrHistogramBuilder histograms = HdrHistogram.Factory.WithRelativeError(relativeError);
        HdrHistogram histogram = histograms.Create();
        foreach (ulong sample in samples.Samples)
            histogram.Record(sample);
        HdrHistogram overheadHistogram = histograms.Create();
        overheadHistogram.Record(samples.Overhead);
        var overhead = new CounterOverhead(overheadHistogram, samples.Overhead, samples.Overhead, samples.Overhead, samples.Overhead, 0, 1);
        return new CounterResult(
            new CounterDescriptor(name, "events", CounterKind.Simulated),
            simulated.OperationsPerSample,
            (ulong[])samples.Samples.Clone(),
            histogram,
            overhead,
            double.NaN);
    }

    private static int SampleCount(SimulatedMeasurement simulated) =>
        simulated.Counters.Select(static c => c.Samples.Length).DefaultIfEmpty(0).Max();
}
