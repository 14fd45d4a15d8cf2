using Picollo.Testing.NUnit;

namespace Picollo.Tests.UnoptimizedBodies;

/// <summary>An NUnit perf test in an assembly built without optimizations, as in a user's Debug build: the adapter ignores it.</summary>
public class DebugBuiltNUnitPerfTests
{
    [PerfTest(Counters = "tsc", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => Bodies.Chain(50);
}
