namespace Picollo.Cli.Ab;

/// <summary>The test framework of a perf-test assembly: it decides how a worker starts one of its tests.</summary>
internal enum AbFramework
{
    /// <summary>xunit.v3 with <c>Picollo.Testing.Xunit</c>: <c>[PerfFact]</c>, <c>[PerfTheory]</c>.</summary>
    Xunit,

    /// <summary>NUnit 4 with <c>Picollo.Testing.NUnit</c>: <c>[PerfTest]</c>, <c>[PerfTestCase]</c>.</summary>
    NUnit,
}
