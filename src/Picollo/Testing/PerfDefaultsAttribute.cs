namespace Picollo.Testing;

/// <summary>
/// Defaults for every perf test of the assembly, with the knobs and the syntax of <c>[PerfFact]</c> / <c>[PerfTest]</c>; a
/// knob set on a test's own attribute wins. <c>[assembly: PerfDefaults(TimeBudgetMs = 500, Fallback = "cycles->tsc")]</c>.
/// <c>Against</c> and <c>MinSpeedup</c> are one test's claim about its own body and are not here; <see cref="MaxSlowdown"/>
/// and <see cref="MinCohensD"/> are the defaults of the tests that declare <c>Against</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = false)]
public sealed partial class PerfDefaultsAttribute : Attribute, IPerfTestDeclaration
{
    // A reference and a speed-up are one test's claim about its own body: never assembly-wide.
    string? IPerfTestDeclaration.Against => null;

    double? IPerfTestDeclaration.MinSpeedup => null;
}
