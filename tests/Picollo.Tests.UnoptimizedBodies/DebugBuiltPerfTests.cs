using Picollo.Testing.Xunit;

namespace Picollo.Tests.UnoptimizedBodies;

/// <summary>A perf test in an assembly built without optimizations, as in a user's Debug build: the adapter skips it.</summary>
public class DebugBuiltPerfTests
{
    [PerfFact(Counters = "tsc", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => Bodies.Chain(50);
}
