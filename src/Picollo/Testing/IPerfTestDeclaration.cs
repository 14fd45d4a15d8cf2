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
    [PerfKnob(
        "`\"tsc,allocated-bytes\"`: counter names as `perf stat -e` spells them, plus `tsc`, `clock` and the runtime counters",
        "the default set")]
    string? Counters { get; }

    /// <summary>Per-operation P50 budgets, <c>"counter:value,counter:value"</c> (e.g. <c>"tsc:20000"</c>).</summary>
    [PerfKnob("`\"counter:value,counter:value\"`, per operation, e.g. `\"tsc:20000,allocated-bytes:64\"`", "none")]
    string? MaxP50 { get; }

    /// <summary>Per-operation P99 budgets, <c>"counter:value,counter:value"</c>.</summary>
    [PerfKnob("`\"counter:value,counter:value\"`, per operation, e.g. `\"tsc:20000,allocated-bytes:64\"`", "none")]
    string? MaxP99 { get; }

    /// <summary>Per-operation mean budgets, <c>"counter:value,counter:value"</c>.</summary>
    [PerfKnob("`\"counter:value,counter:value\"`, per operation, e.g. `\"tsc:20000,allocated-bytes:64\"`", "none")]
    string? MaxMean { get; }

    /// <summary>Counters that must not count at all in any sample, comma-separated (e.g. <c>"allocated-bytes,branch-misses"</c>).</summary>
    [PerfKnob("`\"allocated-bytes,branch-misses\"`: must not count in any sample", "none")]
    string? ZeroBudget { get; }

    /// <summary>
    /// Whether the measurement is compared with the baseline committed beside the test (default: yes for a test whose
    /// body is the operation, no for one that takes a <see cref="PerfContext"/>).
    /// </summary>
    [PerfKnob(
        "`true` / `false`: judge the measurement against the baseline committed beside the test",
        "on for the body style; off for the `PerfContext` style (which calls `ShouldNotRegress` itself)")]
    bool? Baseline { get; }

    /// <summary>
    /// The relative rise (0.05 = 5 %) at which a statistical counter regresses against the baseline; the verdict
    /// policy's (8 % for time) when not set.
    /// </summary>
    [PerfKnob("a fraction, e.g. `0.05`: the rise at which a statistical counter regresses", "the verdict policy's (8 % for time)")]
    double? MaxChange { get; }

    /// <summary>How sure one measurement must be that a rise is real, in [0.5, 0.9999]; 0.95 when not set.</summary>
    [PerfKnob("in [0.5, 0.9999]", "0.95")]
    double? Confidence { get; }

    /// <summary>
    /// An opt-in gate on Cohen's d of time-like counters against the baseline: a regression also needs the floor's d (the
    /// lowest quarter of each side's samples, log scale) above this value, on top of the threshold, z and the confirming
    /// measurement (docs/VERDICTS.md, "Cohen's d"); no gate when not set (d is reported beside z).
    /// </summary>
    [PerfKnob(
        "in (0, 10], e.g. `0.5`: a time regression also needs Cohen's d of the floor above it " +
        "(an opt-in gate on top of the rule, docs/VERDICTS.md \"Cohen's d\")",
        "none: d is reported beside z")]
    double? MaxCohensD { get; }

    /// <summary>
    /// The reference the test's body is compared with, in pairs in one run (<c>Against = nameof(NaiveCount)</c>): a method
    /// of the same class with the test's parameters and return type. The body is the candidate; the relative claim
    /// (<see cref="MinSpeedup"/>, else <see cref="MaxSlowdown"/>) replaces the stored baseline, and the budgets apply to the
    /// candidate. Not for a test that takes a <see cref="PerfContext"/> (it calls <c>perf.Compare</c>); not assembly-wide.
    /// </summary>
    [PerfKnob(
        "`nameof(NaiveCount)`: the body is compared in pairs with this method of the class (\"Against a reference\" below); " +
        "test only, not `PerfDefaults`",
        "none",
        TestOnly = true)]
    string? Against { get; }

    /// <summary>
    /// With <see cref="Against"/>: the least speed-up of the body over the reference on tsc (the first time counter the
    /// machine counts when tsc is unavailable), e.g. 2.0 for twice as fast; positive and finite, below 1 allowing a bounded
    /// slowdown. Not assembly-wide.
    /// </summary>
    [PerfKnob(
        "with `Against`: a factor above 0, e.g. `2.0`: the body at least that much faster on tsc; test only", "none", TestOnly = true)]
    double? MinSpeedup { get; }

    /// <summary>
    /// With <see cref="Against"/>: the largest slowdown of the body against the reference on every time counter, e.g. 0.05
    /// for 5 %; 0 or more. The claim of a test with <see cref="Against"/> and no <see cref="MinSpeedup"/>, with the
    /// assembly's value or 0.05 when not set.
    /// </summary>
    [PerfKnob(
        "with `Against`: a fraction, 0 or more, e.g. `0.05`: the body at most that much slower on every time counter",
        "0.05 when `Against` claims nothing else")]
    double? MaxSlowdown { get; }

    /// <summary>
    /// With <see cref="MinSpeedup"/>: an opt-in gate on Cohen's d_z of the paired log differences, which the speed-up must
    /// reach too (0.8 is large), in (0, 10]; no gate when not set.
    /// </summary>
    [PerfKnob("with `MinSpeedup`: in (0, 10], e.g. `0.8`: the speed-up's Cohen's d_z must reach it too", "none")]
    double? MinCohensD { get; }

    /// <summary>
    /// How many fresh processes a recording of the baseline measures besides the test's own, so the baseline knows the
    /// levels the body's time takes from one process to the next (docs/VERDICTS.md, "Levels"); 3 when not set, 0 for the
    /// test's process only.
    /// </summary>
    [PerfKnob(
        "0 to 16: fresh processes of the test assembly a recording measures besides the test's own, " +
        "to learn the levels of the body's time (docs/VERDICTS.md \"Levels\"); 0 records in the test's process",
        "3",
        Unset = -1)]
    int? RecordingProcesses { get; }

    /// <summary>Samples per measurement (at least 10).</summary>
    [PerfKnob("10 or more", "1,000")]
    int? Samples { get; }

    /// <summary>The time one measurement should take, in milliseconds (default 1,000).</summary>
    [PerfKnob("more than 0: what one measurement should take", "1,000")]
    int? TimeBudgetMs { get; }

    /// <summary>The least warmup, in milliseconds (default 100).</summary>
    [PerfKnob("0 or more: the least warmup", "100")]
    int? WarmupMs { get; }

    /// <summary>
    /// Counters to use when another is unavailable, <c>"counter->fallback,..."</c> (e.g. <c>"cycles->tsc"</c>): a
    /// budget on the first is checked on the second, with a warning.
    /// </summary>
    [PerfKnob("`\"cycles->tsc\"`: a budget on an unavailable counter is checked on its stand-in, with a warning", "none")]
    string? Fallback { get; }

    /// <summary>What an assertion on an unavailable counter does (<see cref="UnavailableCounterPolicy.Skip"/> when not set).</summary>
    [PerfKnob("`UnavailableCounterPolicy.Skip`, `Warn` or `Fail`", "`Skip`")]
    UnavailableCounterPolicy? WhenUnavailable { get; }
}
