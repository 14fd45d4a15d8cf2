using System.Collections.Immutable;
using Picollo.Counters;

namespace Picollo.Measurement;

/// <summary>
/// How <see cref="Perf"/> measures: warmup, samples, operations per sample, time budget, counters, histogram
/// precision, no-GC region and thread pinning. Immutable: derive variants with <c>with</c>, e.g.
/// <c>PerfOptions.Default with { Samples = 200 }</c>. Every property validates its value when it is set and throws
/// an <see cref="ArgumentException"/> that names the property and the accepted range.
/// </summary>
/// <remarks>
/// <para>
/// Per call, pass options to <see cref="Perf.Measure(PerfOptions, Action)"/>. Per assembly (really per process: a test
/// assembly runs in its own process), set <see cref="AssemblyDefault"/> once, e.g. from a module initializer; the overloads
/// without options use it. A static property rather than an attribute: it needs no reflection on the hot start-up path,
/// works from console apps as well as from tests, and the test-framework adapters can still map an attribute onto it.
/// </para>
/// <para>
/// The defaults give a stable verdict for a 100 ns body in well under a second: a warmup of at least 100 ms that lasts
/// until the JIT has compiled the body's final optimized code, a pilot that makes the sample boundary less than 1% of a
/// sample, 1,000 samples, all within a 1 s budget.
/// </para>
/// </remarks>
public sealed record PerfOptions
{
    /// <summary>
    /// The counters measured when <see cref="Counters"/> is empty: a time counter (<c>tsc</c> where it counts, Linux x64; the
    /// portable <c>clock</c> everywhere else), the .NET runtime counters, and the perf events most tests want.
    /// </summary>
    public static readonly ImmutableArray<string> DefaultCounters = KnownCounters.DefaultSet;

    private static volatile PerfOptions s_assemblyDefault = new();

    /// <summary>The built-in defaults.</summary>
    public static PerfOptions Default { get; } = new();

    /// <summary>
    /// The options used by the <see cref="Perf"/> overloads that take none; <see cref="Default"/> until set. Process-wide.
    /// </summary>
    /// <exception cref="ArgumentNullException">Set to <see langword="null"/>.</exception>
    public static PerfOptions AssemblyDefault
    {
        get => s_assemblyDefault;
        set => s_assemblyDefault = value ?? throw new ArgumentNullException(nameof(value));
    }

    /// <summary>
    /// The least number of body invocations during warmup (default 1). Warmup lasts until both this and
    /// <see cref="WarmupTime"/> are reached.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Negative.</exception>
    public long WarmupCount
    {
        get;
        init => field = value >= 0 ? value : throw Invalid(nameof(WarmupCount), value, "must be 0 or more");
    } = 1;

    /// <summary>
    /// The least time spent warming up (default 100 ms). Warmup then goes on until the runtime's JIT events show the body's
    /// method running its final optimized code (<see cref="PerfRunInfo.WarmupEnd"/>): tiered compilation installs it from a
    /// background thread after a 100 ms call-counting delay, and a fresh body got it 210-310 ms into its warmup.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Negative.</exception>
    public TimeSpan WarmupTime
    {
        get;
        init => field = value >= TimeSpan.Zero ? value : throw Invalid(nameof(WarmupTime), value, "must be zero or positive");
    } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// The number of samples (default 1,000); fewer when the run reaches twice <see cref="TimeBudget"/> (never fewer
    /// than <see cref="MinSamples"/>).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Less than 1.</exception>
    public int Samples
    {
        get;
        init => field = value >= 1 ? value : throw Invalid(nameof(Samples), value, "must be 1 or more");
    } = 1_000;

    /// <summary>The samples always taken, even past the time budget (default 10, capped at <see cref="Samples"/>).</summary>
    /// <exception cref="ArgumentOutOfRangeException">Less than 1.</exception>
    public int MinSamples
    {
        get;
        init => field = value >= 1 ? value : throw Invalid(nameof(MinSamples), value, "must be 1 or more");
    } = 10;

    /// <summary>
    /// Operations (body invocations) per sample; 0 (default) lets the pilot choose the fewest that make the sample-boundary
    /// cost less than 1% of a sample, within <see cref="TimeBudget"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Negative.</exception>
    public long OperationsPerSample
    {
        get;
        init => field = value >= 0 ? value : throw Invalid(nameof(OperationsPerSample), value, "must be 0 (chosen by the pilot) or more");
    }

    /// <summary>The empty-body samples of the overhead calibration (default 200).</summary>
    /// <exception cref="ArgumentOutOfRangeException">Less than 1.</exception>
    public int CalibrationSamples
    {
        get;
        init => field = value >= 1 ? value : throw Invalid(nameof(CalibrationSamples), value, "must be 1 or more");
    } = 200;

    /// <summary>
    /// The time one measurement should take, warmup included (default 1 s). The pilot bounds the operations per sample by
    /// it; sampling stops early at twice the budget. Warmup takes at most half of it, except while the JIT events show the
    /// body's tier-1 code still to come: then it may go on until 1.5 s after the start, and the measurement takes that much longer.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Zero or negative.</exception>
    public TimeSpan TimeBudget
    {
        get;
        init => field = value > TimeSpan.Zero ? value : throw Invalid(nameof(TimeBudget), value, "must be positive");
    } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The counters to measure, by name (case-insensitive, as <c>perf stat -e</c> spells perf events, plus <c>tsc</c>,
    /// <c>clock</c> and the <see cref="RuntimeCounterSource"/> names). Empty (default) means <see cref="DefaultCounters"/>. A perf
    /// event the machine cannot open still gets a result, marked unavailable with the reason.
    /// </summary>
    /// <exception cref="ArgumentException">A name is null, blank or repeated.</exception>
    public ImmutableArray<string> Counters
    {
        get => field.IsDefault ? [] : field;
        init => field = ValidateCounters(value);
    }

    /// <summary>The relative error of every counter's histogram (default 0.001 = 0.1%), in (0, 0.1].</summary>
    /// <exception cref="ArgumentOutOfRangeException">Not in (0, 0.1].</exception>
    public double RelativeError
    {
        get;
        init => field = value > 0 && value <= 0.1 ? value : throw Invalid(nameof(RelativeError), value, "must lie in (0, 0.1]");
    } = 0.001;

    /// <summary>
    /// Runs the samples inside a no-GC region (default on) when the pilot shows that the body allocates little enough for
    /// the whole run to fit one (see <see cref="NoGCRegionMaxBytes"/>), so a collection cannot land in a sample.
    /// </summary>
    public bool UseNoGCRegion { get; init; } = true;

    /// <summary>The largest total allocation of the sampling phase for which a no-GC region is tried (default 16 MiB).</summary>
    /// <exception cref="ArgumentOutOfRangeException">Zero or negative.</exception>
    public long NoGCRegionMaxBytes
    {
        get;
        init => field = value > 0 ? value : throw Invalid(nameof(NoGCRegionMaxBytes), value, "must be positive");
    } = 16L << 20;

    /// <summary>
    /// Pins the measuring thread to its current CPU for the run and restores its affinity after (default on; Linux
    /// only).
    /// </summary>
    public bool PinThread { get; init; } = true;

    /// <summary>The counter names this run measures: <see cref="Counters"/>, or <see cref="DefaultCounters"/> when empty.</summary>
    public ImmutableArray<string> EffectiveCounters => Counters.IsEmpty ? DefaultCounters : Counters;

    private static ImmutableArray<string> ValidateCounters(ImmutableArray<string> names)
    {
        if (names.IsDefault)
            return [];
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < names.Length; i++)
        {
            string name = names[i];
            if (string.IsNullOrWhiteSpace(name))
            {
                throw new ArgumentException(
                    $"{nameof(PerfOptions)}.{nameof(Counters)}[{i}] is blank: " +
                    "name a counter such as \"tsc\", \"allocated-bytes\" or \"task-clock\".");
            }

            if (!seen.Add(name))
                throw new ArgumentException($"{nameof(PerfOptions)}.{nameof(Counters)} names \"{name}\" more than once.");
        }

        return names;
    }

    private static ArgumentOutOfRangeException Invalid(string property, object value, string rule)
        => new(property, value, $"{nameof(PerfOptions)}.{property} {rule}.");
}
