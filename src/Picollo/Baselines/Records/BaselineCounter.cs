using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Metrics;

namespace Picollo.Baselines.Records;

/// <summary>One counter's measured distribution, as stored in a baseline or compared with one.</summary>
/// <param name="Name">The counter's canonical name, e.g. <c>task-clock</c>; the key within an entry.</param>
/// <param name="Unit">The unit of one count, e.g. <c>ns</c>, <c>bytes</c>, <c>events</c>.</param>
/// <param name="Kind">The source family; decides portability and the default verdict rule.</param>
/// <param name="Histogram">
/// One value per sample: the counter's total over the sample's operations (overhead subtracted), as the
/// measurement engine records it; a single operation's value when <paramref name="OperationsPerSample"/> is 1.
/// </param>
/// <param name="OperationsPerSample">
/// Operations per sample. Statistics are divided by it before comparing, so runs that grouped a different
/// number of operations per sample compare per operation. 1 makes the histogram a distribution of single
/// operations, which is wider than one of sample totals and is never compared with it.
/// </param>
/// <param name="PerOperation">The exact per-operation statistics of the samples, which verdicts compare and reports show.</param>
/// <param name="Recording">How steady the recording was; <see langword="null"/> for a measurement not (yet) recorded as a baseline.</param>
internal sealed record BaselineCounter(
    string Name,
    string Unit,
    CounterKind Kind,
    HdrHistogram Histogram,
    double OperationsPerSample,
    PerOperationSummary PerOperation,
    RecordingQuality? Recording = null)
{
    /// <summary>Takes an available counter of a measurement as it is compared and stored.</summary>
    /// <param name="counter">A counter of a <see cref="PerfResult"/>.</param>
    /// <returns>The counter's name, unit, kind, histogram, operations per sample and exact per-operation statistics.</returns>
    /// <exception cref="ArgumentException">The counter is unavailable: it has nothing to compare.</exception>
    public static BaselineCounter FromResult(CounterResult counter)
    {
        ArgumentNullException.ThrowIfNull(counter);
        if (!counter.IsAvailable)
            throw new ArgumentException($"Counter '{counter.Name}' was not measured: {counter.UnavailableReason}", nameof(counter));
        return new BaselineCounter(
            counter.Name,
            counter.Unit,
            counter.Kind,
            counter.Histogram,
            counter.OperationsPerSample,
            PerOperationSummary.FromResult(counter));
    }

    /// <summary>
    /// A counter known only by its histogram (a baseline written before exact statistics were stored, synthetic data):
    /// its per-operation statistics are the histogram's, within its precision.
    /// </summary>
    /// <param name="name">The counter's name.</param>
    /// <param name="unit">The counter's unit.</param>
    /// <param name="kind">The counter's kind.</param>
    /// <param name="histogram">The per-sample totals.</param>
    /// <param name="operationsPerSample">The operations behind each total.</param>
    /// <returns>The counter.</returns>
    public static BaselineCounter FromHistogram(
        string name, string unit, CounterKind kind, HdrHistogram histogram, double operationsPerSample)
        => new(name, unit, kind, histogram, operationsPerSample, PerOperationSummary.FromHistogram(histogram, operationsPerSample));
}
