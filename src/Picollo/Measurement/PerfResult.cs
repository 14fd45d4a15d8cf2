using System.Collections.ObjectModel;
using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;
using Picollo.PerfEvents;

namespace Picollo.Measurement;

/// <summary>
/// The outcome of one <see cref="Perf"/> measurement: one <see cref="CounterResult"/> per requested counter and how the
/// run went.
/// </summary>
public sealed class PerfResult
{
    private readonly ReadOnlyCollection<CounterResult> _counters;

    internal PerfResult(
        IList<CounterResult> counters,
        PerfOptions options,
        PerfRunInfo run)
    {
        _counters = new ReadOnlyCollection<CounterResult>(counters);
        Options = options;
        Run = run;
    }

    // Measures the same body with the same options again: how a statistical regression is confirmed before a test
    // fails on it (BaselineAssertions.ShouldNotRegress). Null for results built any other way.
    private Func<PerfResult>? _remeasure;

    /// <summary>Whether <see cref="Remeasure"/> can measure the same body again.</summary>
    public bool CanRemeasure => _remeasure is not null;

    /// <summary>Measures the same body with the same options once more (a new, independent result).</summary>
    /// <returns>The new measurement.</returns>
    /// <exception cref="InvalidOperationException">The result was not produced by <see cref="Perf"/>.Measure.</exception>
    public PerfResult Remeasure() => _remeasure is { } remeasure
        ? remeasure()
        : throw new InvalidOperationException("Only results of Perf.Measure can be measured again: this one was built another way.");

    internal PerfResult WithRemeasure(Func<PerfResult> remeasure)
    {
        _remeasure = remeasure;
        return this;
    }

    // Counts the simulated counters of the same region in another worker process: how a recording checks that they repeat
    // across processes before storing them (docs/VERDICTS.md, "Simulated counters"). Null without simulated counters.
    private Func<SimulatedMeasurement>? _simulateAgain;

    /// <summary>Whether <see cref="SimulateAgain"/> can count the simulated counters in another process.</summary>
    internal bool CanSimulateAgain => _simulateAgain is not null;

    /// <summary>The simulated counters of this measurement counted again in another process.</summary>
    /// <exception cref="InvalidOperationException">The measurement has no simulated counters that counted.</exception>
    /// <exception cref="PerfSimulationException">The simulation ran and failed.</exception>
    internal SimulatedMeasurement SimulateAgain() => _simulateAgain is { } again
        ? again()
        : throw new InvalidOperationException("This measurement has no simulated counters to count again.");

    /// <summary>
    /// In a <c>picollo ab</c> worker, the turn whose record waits for this measurement's simulated counters: the engine
    /// hands it the merged result (<see cref="PerfEngine.Measure"/>).
    /// </summary>
    internal PairedTurn? PendingTurn { get; private set; }

    internal PerfResult WithPendingTurn(PairedTurn turn)
    {
        PendingTurn = turn;
        return this;
    }

    internal PerfResult WithSimulateAgain(Func<SimulatedMeasurement>? simulateAgain)
    {
        _simulateAgain = simulateAgain;
        return this;
    }

    /// <summary>One result per requested counter, in request order, available or not.</summary>
    public IReadOnlyList<CounterResult> Counters => _counters;

    /// <summary>The options of the run.</summary>
    public PerfOptions Options { get; }

    /// <summary>How the run went: operations per sample, samples, timings, pinning, no-GC region, notes.</summary>
    public PerfRunInfo Run { get; }

    /// <summary>Operations (body invocations) per sample.</summary>
    public long OperationsPerSample => Run.OperationsPerSample;

    /// <summary>The number of samples taken.</summary>
    public int SampleCount => Run.SampleCount;

    /// <summary>The wall time of the whole measurement, warmup included.</summary>
    public TimeSpan WallTime => Run.WallTime;

    /// <summary>The CPU the thread was pinned to, or <see langword="null"/> (see <see cref="PerfRunInfo.PinningFailureReason"/>).</summary>
    public int? PinnedCpu => Run.PinnedCpu;

    /// <summary>When the measurement started (UTC).</summary>
    public DateTime TimestampUtc => Run.TimestampUtc;

    /// <summary>The result of a counter by name (case-insensitive; perf aliases such as <c>cpu-cycles</c> resolve).</summary>
    /// <param name="counterName">The counter's name.</param>
    /// <returns>The result; for a counter this run did not measure, an unavailable result that says so.</returns>
    public CounterResult this[string counterName]
    {
        get
        {
            ArgumentNullException.ThrowIfNull(counterName);
            return Find(counterName) ?? Find(CanonicalName(counterName)) ?? NotMeasured(counterName);
        }
    }

    /// <summary>The time-stamp counter, ticks per operation.</summary>
    public CounterResult Tsc => this[CounterNames.Tsc];

    /// <summary>
    /// Wall time from the runtime's clock, nanoseconds per operation: the time counter of the default set where <c>tsc</c>
    /// cannot count (Windows, macOS, Arm64).
    /// </summary>
    public CounterResult Clock => this[CounterNames.Clock];

    /// <summary>CPU cycles per operation.</summary>
    public CounterResult Cycles => this[CounterNames.Cycles];

    /// <summary>Instructions per operation.</summary>
    public CounterResult Instructions => this[CounterNames.Instructions];

    /// <summary>Branch misses per operation.</summary>
    public CounterResult BranchMisses => this[CounterNames.BranchMisses];

    /// <summary>Cache misses per operation.</summary>
    public CounterResult CacheMisses => this[CounterNames.CacheMisses];

    /// <summary>Thread CPU time (task-clock), ns per operation.</summary>
    public CounterResult TaskClock => this[CounterNames.TaskClock];

    /// <summary>Page faults per operation.</summary>
    public CounterResult PageFaults => this[CounterNames.PageFaults];

    /// <summary>Allocated bytes per operation.</summary>
    public CounterResult AllocatedBytes => this[CounterNames.AllocatedBytes];

    /// <summary>Generation-0 collections per operation.</summary>
    public CounterResult Gen0Collections => this[CounterNames.Gen0Collections];

    /// <summary>Generation-1 collections per operation.</summary>
    public CounterResult Gen1Collections => this[CounterNames.Gen1Collections];

    /// <summary>Generation-2 collections per operation.</summary>
    public CounterResult Gen2Collections => this[CounterNames.Gen2Collections];

    /// <summary>Instructions per operation counted under simulation (docs/COUNTERS.md, "Simulated counters").</summary>
    public CounterResult SimInstructions => this[CounterNames.SimInstructions];

    /// <summary>Branches per operation counted under simulation.</summary>
    public CounterResult SimBranches => this[CounterNames.SimBranches];

    /// <summary>Branch mispredictions per operation of the simulated branch predictor.</summary>
    public CounterResult SimBranchMisses => this[CounterNames.SimBranchMisses];

    /// <summary>First-level cache misses per operation of the simulated caches.</summary>
    public CounterResult SimL1Misses => this[CounterNames.SimL1Misses];

    /// <summary>Last-level cache misses per operation of the simulated caches.</summary>
    public CounterResult SimCacheMisses => this[CounterNames.SimCacheMisses];

    /// <summary>Cycles per operation estimated from the simulated counts (the model: docs/COUNTERS.md, "Simulated counters").</summary>
    public CounterResult SimCycles => this[CounterNames.SimCycles];

    /// <summary>The run's notes and every counter's table in markdown, each titled with what its values are.</summary>
    /// <param name="values">Per operation (default: exact percentiles of the samples) or per sample (the histogram summaries).</param>
    /// <returns>The run line, one line per note, the tables of the available counters, then one line per unavailable counter.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="values"/> is not a defined value.</exception>
    public string ToMarkdown(CounterValues values = CounterValues.PerOperation)
    {
        var text = new System.Text.StringBuilder();
        text.Append(
            CultureInfo.InvariantCulture,
            $"{SampleCount:N0} samples × {OperationsPerSample:N0} operations in {WallTime.TotalMilliseconds:N0} ms\n\n");

        // The caveats decide how far the numbers can be trusted: unoptimized code, code changed under the samples.
        foreach (string note in Run.Notes)
            text.Append("Note: ").Append(note).Append("\n\n");
        foreach (CounterResult counter in _counters.Where(static c => c.IsAvailable))
            text.Append(counter.ToMarkdown(values));
        foreach (CounterResult counter in _counters.Where(static c => !c.IsAvailable))
            text.Append(counter.ToMarkdown(values));

        return text.ToString();
    }

    /// <inheritdoc/>
    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture,
        $"{_counters.Count} counters, {SampleCount:N0} samples × {OperationsPerSample:N0} ops, {WallTime.TotalMilliseconds:N0} ms");

    private CounterResult? Find(string name)
    {
        foreach (CounterResult counter in _counters)
        {
            if (string.Equals(counter.Name, name, StringComparison.OrdinalIgnoreCase))
                return counter;
        }

        return null;
    }

    private static string CanonicalName(string name)
    {
        try
        {
            return PerfEventCatalog.Default.ResolveSingle(name).Name;
        }
        catch (PerfEventNameException)
        {
            // Not a perf event name (e.g. a misspelt runtime counter): reported as not measured below.
            return name;
        }
    }

    private CounterResult NotMeasured(string name) => CounterResult.Unavailable(
        new CounterDescriptor(name, "events", CounterKind.Software, MeasurementMessages.CounterNotMeasured(name)),
        Options.RelativeError);
}
