namespace Picollo.Testing;

/// <summary>
/// What a perf test does with an assertion whose counter this machine cannot count (no PMU, <c>perf_event_paranoid</c>,
/// a container).
/// </summary>
public enum UnavailableCounterPolicy
{
    /// <summary>
    /// The default: the assertion does not run and becomes a warning with the reason and the remedy; the other assertions
    /// still run; a test in which no assertion could run is skipped with the reasons, never passed.
    /// </summary>
    Skip,

    /// <summary>Like <see cref="Skip"/>, but a test in which no assertion could run passes with its warnings.</summary>
    Warn,

    /// <summary>An assertion that cannot run fails the test (a machine that must have its PMU, e.g. a dedicated perf runner).</summary>
    Fail,
}
