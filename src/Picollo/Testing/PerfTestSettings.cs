using System.Collections.Immutable;
using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.PerfEvents;

namespace Picollo.Testing;

/// <summary>
/// A perf test's knobs parsed and validated: the test's own attribute over the assembly's <see cref="PerfDefaultsAttribute"/>
/// over the built-in defaults. One parser for every adapter, so <c>[PerfFact]</c> and <c>[PerfTest]</c> accept and refuse the
/// same values with the same messages.
/// </summary>
internal sealed class PerfTestSettings
{
    /// <summary>The slowdown a test with <c>Against</c> and no claim of its own may show: not slower by more than 5 %.</summary>
    public const double DefaultMaxSlowdown = 0.05;

    private const string ListForm = "\"counter:value,counter:value\" with values per operation, e.g. \"tsc:20000,allocated-bytes:64\"";

    private PerfTestSettings(PerfOptions options, IReadOnlyList<CounterBudget> budgets, IReadOnlyDictionary<string, string> fallbacks)
    {
        Options = options;
        Budgets = budgets;
        Fallbacks = fallbacks;
    }

    /// <summary>The measurement options: the declared counters (plus those the budgets and fallbacks name), samples and times.</summary>
    public PerfOptions Options { get; }

    /// <summary>The declared budgets, in declaration order (MaxP50, MaxP99, MaxMean, ZeroBudget).</summary>
    public IReadOnlyList<CounterBudget> Budgets { get; }

    /// <summary>For a counter (canonical name), the counter that stands in for it when it is unavailable.</summary>
    public IReadOnlyDictionary<string, string> Fallbacks { get; }

    /// <summary>Whether the baseline is judged; <see langword="null"/> for the style's default.</summary>
    public bool? Baseline { get; private init; }

    /// <summary>The declared practical threshold, or <see langword="null"/>.</summary>
    public double? MaxChange { get; private init; }

    /// <summary>The declared confidence, or <see langword="null"/>.</summary>
    public double? Confidence { get; private init; }

    /// <summary>The declared Cohen's d gate, or <see langword="null"/>.</summary>
    public double? MaxCohensD { get; private init; }

    /// <summary>The name of the reference method the body is compared with (<c>Against</c>), or <see langword="null"/>.</summary>
    public string? Against { get; private init; }

    /// <summary>
    /// With <see cref="Against"/>: the least speed-up the body must show on time, or <see langword="null"/> for no
    /// speed-up claim.
    /// </summary>
    public double? MinSpeedup { get; private init; }

    /// <summary>
    /// With <see cref="Against"/>: the largest slowdown allowed on every time counter, or <see langword="null"/> for no such
    /// claim. Without <see cref="MinSpeedup"/> it is always set: the test's value, else the assembly's, else
    /// <see cref="DefaultMaxSlowdown"/>; beside <see cref="MinSpeedup"/> only when the test declares it.
    /// </summary>
    public double? MaxSlowdown { get; private init; }

    /// <summary>With <see cref="MinSpeedup"/>: the Cohen's d_z gate of the speed-up, or <see langword="null"/>.</summary>
    public double? MinCohensD { get; private init; }

    /// <summary>The declared number of fresh processes a recording measures, or <see langword="null"/>.</summary>
    public int? RecordingProcesses { get; private init; }

    /// <summary>What an assertion on an unavailable counter does.</summary>
    public UnavailableCounterPolicy WhenUnavailable { get; private init; }

    /// <summary>Parses <paramref name="test"/> over <paramref name="defaults"/>.</summary>
    /// <param name="attribute">The test's attribute as written in messages, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test's own knobs.</param>
    /// <param name="defaults">The assembly's defaults, or <see langword="null"/>.</param>
    /// <param name="baseOptions">The options the knobs refine (<see cref="PerfOptions.AssemblyDefault"/>).</param>
    /// <returns>The settings.</returns>
    /// <exception cref="PerfTestConfigurationException">
    /// A knob's value cannot be used: the message names it, the token and the valid form.
    /// </exception>
    public static PerfTestSettings Parse(
        string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults, PerfOptions baseOptions)
    {
        ArgumentNullException.ThrowIfNull(test);
        ArgumentNullException.ThrowIfNull(baseOptions);

        // Stages in the order a user reads the knobs, so the first invalid one is the one reported: what is measured and
        // budgeted, how it is measured, how the baseline judges it, and the claim against a reference.
        List<string> counters = ParseCounters(attribute, test, defaults);
        List<CounterBudget> budgets = ParseAllBudgets(attribute, test, defaults);
        Dictionary<string, string> fallbacks = ParseFallbacks(attribute, test, defaults);
        PerfOptions options = baseOptions with { Counters = MeasuredCounters(counters, budgets, fallbacks, baseOptions) };
        options = ParseMeasurement(attribute, test, defaults, options);
        (double? maxChange, double? confidence, double? maxCohensD, int? recordingProcesses) = ParseVerdict(attribute, test, defaults);
        (string? against, double? minSpeedup, double? maxSlowdown, double? minCohensD) = AgainstClaim.Parse(attribute, test, defaults);

        UnavailableCounterPolicy policy = test.WhenUnavailable ?? defaults?.WhenUnavailable ?? UnavailableCounterPolicy.Skip;
        if (!Enum.IsDefined(policy))
        {
            throw Invalid(
                test.WhenUnavailable is null ? "[assembly: PerfDefaults]" : attribute,
                nameof(IPerfTestDeclaration.WhenUnavailable),
                Text((int)policy),
                "it is not a policy", "UnavailableCounterPolicy.Skip, Warn or Fail");
        }

        return new PerfTestSettings(options, budgets, fallbacks)
        {
            Baseline = test.Baseline ?? defaults?.Baseline,
            MaxChange = maxChange,
            Confidence = confidence,
            MaxCohensD = maxCohensD,
            RecordingProcesses = recordingProcesses,
            WhenUnavailable = policy,
            Against = against,
            MinSpeedup = minSpeedup,
            MaxSlowdown = maxSlowdown,
            MinCohensD = minCohensD,
        };
    }

    private static List<string> ParseCounters(string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults)
    {
        var counters = new List<string>();
        if (Pick(attribute, test.Counters, defaults?.Counters) is ({ } countersText, string countersSource))
        {
            foreach (string token in Split(countersText))
                counters.Add(Counter(countersSource, nameof(IPerfTestDeclaration.Counters), countersText, token));
            if (counters.Count == 0)
            {
                throw Invalid(
                    countersSource, nameof(IPerfTestDeclaration.Counters), countersText,
                    "it names no counter", "a comma-separated list of counter names, e.g. \"tsc,allocated-bytes\"");
            }
        }

        return counters;
    }

    // MaxP50, MaxP99, MaxMean and ZeroBudget, in that order.
    private static List<CounterBudget> ParseAllBudgets(string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults)
    {
        var budgets = new List<CounterBudget>();
        foreach ((string knob, string? own, string? fallback) in new[]
        {
            (nameof(IPerfTestDeclaration.MaxP50), test.MaxP50, defaults?.MaxP50),
            (nameof(IPerfTestDeclaration.MaxP99), test.MaxP99, defaults?.MaxP99),
            (nameof(IPerfTestDeclaration.MaxMean), test.MaxMean, defaults?.MaxMean),
        })
        {
            if (Pick(attribute, own, fallback) is ({ } text, string source))
                budgets.AddRange(ParseBudgets(source, knob, text));
        }

        if (Pick(attribute, test.ZeroBudget, defaults?.ZeroBudget) is ({ } zeroText, string zeroSource))
        {
            foreach (string token in Split(zeroText))
            {
                string counter = Counter(zeroSource, nameof(IPerfTestDeclaration.ZeroBudget), zeroText, token);
                budgets.Add(new CounterBudget(nameof(IPerfTestDeclaration.ZeroBudget), counter, 0));
            }
        }

        return budgets;
    }

    private static Dictionary<string, string> ParseFallbacks(string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults)
    {
        var fallbacks = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        if (Pick(attribute, test.Fallback, defaults?.Fallback) is ({ } fallbackText, string fallbackSource))
        {
            foreach (string token in Split(fallbackText))
            {
                const string form = "\"counter->fallback\", comma-separated, e.g. \"cycles->tsc\"";
                string[] parts = token.Split("->", StringSplitOptions.TrimEntries);
                if (parts.Length != 2 || parts[0].Length == 0 || parts[1].Length == 0)
                    throw Invalid(fallbackSource, nameof(IPerfTestDeclaration.Fallback), fallbackText, $"'{token}' is not a pair", form);
                string from = Counter(fallbackSource, nameof(IPerfTestDeclaration.Fallback), fallbackText, parts[0]);
                string to = Counter(fallbackSource, nameof(IPerfTestDeclaration.Fallback), fallbackText, parts[1]);
                if (string.Equals(from, to, StringComparison.OrdinalIgnoreCase))
                {
                    throw Invalid(
                        fallbackSource, nameof(IPerfTestDeclaration.Fallback), fallbackText,
                        $"'{token}' falls back to itself", form);
                }

                fallbacks[from] = to;
            }
        }

        return fallbacks;
    }

    // The budgets' counters and the fallbacks of measured counters are measured too: a budget on a counter the measurement
    // left out would never run.
    private static ImmutableArray<string> MeasuredCounters(
        List<string> counters, List<CounterBudget> budgets, Dictionary<string, string> fallbacks, PerfOptions options)
    {
        ImmutableArray<string> measured = counters.Count > 0 ? [.. counters] : options.EffectiveCounters;
        var all = new List<string>(measured.Select(CounterPlan.CanonicalName));
        foreach (CounterBudget budget in budgets)
            AddOnce(all, budget.Counter);
        foreach (string counter in all.ToList())
        {
            // A simulated stand-in costs a worker process of several seconds: measured only where the counter it stands in
            // for cannot count (instructions->sim-instructions on a machine without a PMU).
            if (fallbacks.TryGetValue(counter, out string? stand)
                && (KnownCounters.SimulatedName(stand) is null || !PerfEventAvailability.Current.IsHardwareAvailable))
            {
                AddOnce(all, stand);
            }
        }

        return [.. all];
    }

    // Samples, TimeBudgetMs and WarmupMs: how long and how finely the body is measured.
    private static PerfOptions ParseMeasurement(
        string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults, PerfOptions options)
    {
        if (Pick(attribute, test.Samples, defaults?.Samples) is ({ } samples, string samplesSource))
        {
            options = samples >= 10
                ? options with { Samples = samples }
                : throw Invalid(
                    samplesSource, nameof(IPerfTestDeclaration.Samples), Text(samples),
                    "a measurement needs at least 10 samples", "a whole number of samples, 10 or more (1,000 by default)");
        }

        if (Pick(attribute, test.TimeBudgetMs, defaults?.TimeBudgetMs) is ({ } budgetMs, string budgetSource))
        {
            options = budgetMs > 0
                ? options with { TimeBudget = TimeSpan.FromMilliseconds(budgetMs) }
                : throw Invalid(
                    budgetSource, nameof(IPerfTestDeclaration.TimeBudgetMs), Text(budgetMs),
                    "a time budget must be positive", "milliseconds, more than 0 (1,000 by default)");
        }

        if (Pick(attribute, test.WarmupMs, defaults?.WarmupMs) is ({ } warmupMs, string warmupSource))
        {
            options = warmupMs >= 0
                ? options with { WarmupTime = TimeSpan.FromMilliseconds(warmupMs) }
                : throw Invalid(
                    warmupSource, nameof(IPerfTestDeclaration.WarmupMs), Text(warmupMs),
                    "a warmup cannot be negative", "milliseconds, 0 or more (100 by default)");
        }

        return options;
    }

    // MaxChange, Confidence, MaxCohensD and RecordingProcesses: how the stored baseline judges and records.
    private static (double? MaxChange, double? Confidence, double? MaxCohensD, int? RecordingProcesses) ParseVerdict(
        string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults)
    {
        double? maxChange = null, confidence = null;
        if (Pick(attribute, test.MaxChange, defaults?.MaxChange) is ({ } change, string changeSource))
        {
            maxChange = change > 0 && change <= 10
                ? change
                : throw Invalid(
                    changeSource, nameof(IPerfTestDeclaration.MaxChange), Text(change),
                    "the threshold is a relative change above 0", "a fraction, e.g. 0.05 for 5 % (at most 10)");
        }

        if (Pick(attribute, test.Confidence, defaults?.Confidence) is ({ } sure, string sureSource))
        {
            confidence = sure >= 0.5 && sure <= 0.9999
                ? sure
                : throw Invalid(
                    sureSource, nameof(IPerfTestDeclaration.Confidence), Text(sure),
                    "a confidence lies in [0.5, 0.9999]", "a probability, e.g. 0.95 (the default) or 0.99");
        }

        double? maxCohensD = null;
        if (Pick(attribute, test.MaxCohensD, defaults?.MaxCohensD) is ({ } d, string dSource))
        {
            maxCohensD = d > 0 && d <= 10
                ? d
                : throw Invalid(
                    dSource, nameof(IPerfTestDeclaration.MaxCohensD), Text(d),
                    "Cohen's d gate lies in (0, 10]", "an effect size of the floors, e.g. 0.5 or 2 (docs/VERDICTS.md, \"Cohen's d\")");
        }

        int? recordingProcesses = null;
        if (Pick(attribute, test.RecordingProcesses, defaults?.RecordingProcesses) is ({ } processes, string processesSource))
        {
            recordingProcesses = processes is >= 0 and <= 16
                ? processes
                : throw Invalid(
                    processesSource, nameof(IPerfTestDeclaration.RecordingProcesses), Text(processes),
                    "a recording measures 0 to 16 fresh processes", "a whole number from 0 (the test's process only) to 16 (3 by default)");
        }

        return (maxChange, confidence, maxCohensD, recordingProcesses);
    }

    private static IEnumerable<CounterBudget> ParseBudgets(string source, string knob, string text)
    {
        foreach (string token in Split(text))
        {
            int colon = token.LastIndexOf(':');
            if (colon <= 0 || colon == token.Length - 1)
                throw Invalid(source, knob, text, $"'{token}' is not counter:value", ListForm);
            string counter = Counter(source, knob, text, token[..colon].Trim());
            string number = token[(colon + 1)..].Trim();
            if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double max) || !double.IsFinite(max))
                throw Invalid(source, knob, text, $"'{number}' is not a number", ListForm);
            if (max < 0)
                throw Invalid(source, knob, text, $"'{number}' is negative: a budget is a count per operation, 0 or more", ListForm);
            yield return new CounterBudget(knob, counter, max);
        }
    }

    private static string Counter(string source, string knob, string text, string token)
    {
        try
        {
            return CounterPlan.CanonicalName(token);
        }
        catch (ArgumentException e)
        {
            throw new PerfTestConfigurationException($"{source} {knob} = \"{text}\": '{token}' is not a counter. {e.Message}", e);
        }
    }

    /// <summary>The test's own value, else the assembly's, with where it came from for the message.</summary>
    internal static (T Value, string Source)? Pick<T>(string attribute, T? own, T? assembly)
        where T : class =>
        own is not null ? (own, attribute) : assembly is not null ? (assembly, "[assembly: PerfDefaults]") : null;

    /// <summary>The test's own value, else the assembly's, with where it came from for the message.</summary>
    internal static (T Value, string Source)? Pick<T>(string attribute, T? own, T? assembly)
        where T : struct =>
        own is { } o ? (o, attribute) : assembly is { } a ? (a, "[assembly: PerfDefaults]") : null;

    private static string[] Split(string text) =>
        text.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);

    private static void AddOnce(List<string> counters, string counter)
    {
        if (!counters.Contains(counter, StringComparer.OrdinalIgnoreCase))
            counters.Add(counter);
    }

    /// <summary>A knob's number as a message quotes it.</summary>
    internal static string Text(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    /// <summary>The refusal of a knob's value: where it came from, the knob, the value, why, and the form that works.</summary>
    internal static PerfTestConfigurationException Invalid(string source, string knob, string value, string reason, string form) =>
        new(PerfTestMessages.InvalidKnob(source, knob, value, reason, form));
}
