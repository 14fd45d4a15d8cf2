namespace Picollo.Testing;

/// <summary>
/// The knobs of a perf test as an attribute declares them, unparsed: <c>[PerfFact]</c> and <c>[PerfTheory]</c> (xunit),
/// <c>[PerfTest]</c> and <c>[PerfTestCase]</c> (NUnit) and <see cref="PerfDefaultsAttribute"/> all implement it with the same
/// names, and <see cref="PerfTestExecution"/> parses and validates them in one place (docs/TESTING.md lists them). A
/// <see langword="null"/> member was not set: the assembly's <see cref="PerfDefaultsAttribute"/> or the built-in default
/// applies.
/// </summary>
public interface IPerfTestDeclaration
{
    /// <summary>The counters to measure, comma-separated (e.g. <c>"tsc,allocated-bytes"</c>); the default set when not set.</summary>
    string? Counters { get; }

    /// <summary>Per-operation P50 budgets, <c>"counter:value,counter:value"</c> (e.g. <c>"tsc:20000"</c>).</summary>
    string? MaxP50 { get; }

    /// <summary>Per-operation P99 budgets, <c>"counter:value,counter:value"</c>.</summary>
    string? MaxP99 { get; }

    /// <summary>Per-operation mean budgets, <c>"counter:value,counter:value"</c>.</summary>
    string? MaxMean { get; }

    /// <summary>Counters that must not count at all in any sample, comma-separated (e.g. <c>"allocated-bytes,branch-misses"</c>).</summary>
    string? ZeroBudget { get; }

    /// <summary>Whether the measurement is compared with the baseline committed beside the test (default: yes for a test whose body is the operation, no for one that takes a <see cref="PerfContext"/>).</summary>
    bool? Baseline { get; }

    /// <summary>The relative rise (0.05 = 5 %) at which a statistical counter regresses against the baseline; the verdict policy's (8 % for time) when not set.</summary>
    double? MaxChange { get; }

    /// <summary>How sure one measurement must be that a rise is real, in [0.5, 0.9999]; 0.95 when not set.</summary>
    double? Confidence { get; }

    /// <summary>
    /// An opt-in gate on Cohen's d of time-like counters against the baseline: a regression also needs the floor's d (the
    /// lowest quarter of each side's samples, log scale) above this value, on top of the threshold, z and the confirming
    /// measurement (docs/VERDICTS.md, "Cohen's d"); no gate when not set (d is reported beside z).
    /// </summary>
    double? MaxCohensD { get; }

    /// <summary>
    /// The reference the test's body is compared with, side by side in one run (<c>Against = nameof(NaiveCount)</c>): a method
    /// of the same class with the test's parameters and return type. The body is the candidate; the relative claim
    /// (<see cref="MinSpeedup"/>, else <see cref="MaxSlowdown"/>) replaces the stored baseline, and the budgets apply to the
    /// candidate. Not for a test that takes a <see cref="PerfContext"/> (it calls <c>perf.Compare</c>); not assembly-wide.
    /// </summary>
    string? Against { get; }

    /// <summary>
    /// With <see cref="Against"/>: the least speed-up of the body over the reference on tsc (the first time counter the
    /// machine counts when tsc is unavailable), e.g. 2.0 for twice as fast; positive and finite, below 1 allowing a bounded
    /// slowdown. Not assembly-wide.
    /// </summary>
    double? MinSpeedup { get; }

    /// <summary>
    /// With <see cref="Against"/>: the largest slowdown of the body against the reference on every time counter, e.g. 0.05
    /// for 5 %; 0 or more. The claim of a test with <see cref="Against"/> and no <see cref="MinSpeedup"/>, with the
    /// assembly's value or 0.05 when not set.
    /// </summary>
    double? MaxSlowdown { get; }

    /// <summary>
    /// With <see cref="MinSpeedup"/>: an opt-in gate on Cohen's d_z of the paired log differences, which the speed-up must
    /// reach too (0.8 is large), in (0, 10]; no gate when not set.
    /// </summary>
    double? MinCohensD { get; }

    /// <summary>
    /// How many fresh processes a recording of the baseline measures besides the test's own, so the baseline knows the
    /// levels the body's time takes from one process to the next (docs/VERDICTS.md, "Levels"); 3 when not set, 0 for the
    /// test's process only.
    /// </summary>
    int? RecordingProcesses { get; }

    /// <summary>Samples per measurement (at least 10).</summary>
    int? Samples { get; }

    /// <summary>The time one measurement should take, in milliseconds (default 1,000).</summary>
    int? TimeBudgetMs { get; }

    /// <summary>The least warmup, in milliseconds (default 100).</summary>
    int? WarmupMs { get; }

    /// <summary>Counters to use when another is unavailable, <c>"counter->fallback,..."</c> (e.g. <c>"cycles->tsc"</c>): a budget on the first is checked on the second, with a warning.</summary>
    string? Fallback { get; }

    /// <summary>What an assertion on an unavailable counter does (<see cref="UnavailableCounterPolicy.Skip"/> when not set).</summary>
    UnavailableCounterPolicy? WhenUnavailable { get; }
}
