using Picollo.Testing;
using Picollo.Testing.Xunit;

namespace Picollo.Tests.UnoptimizedBodies;

/// <summary>Perf tests in an assembly built without optimizations, as in a user's Debug build: the adapter skips them.</summary>
public class DebugBuiltPerfTests
{
    [PerfFact(Counters = "tsc", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => Bodies.Chain(50);

    /// <summary>A region measured through a lambda, whose method the compiler names &lt;Region&gt;b__1_0: the skip names the test.</summary>
    [PerfFact(Counters = "tsc", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public void Region(PerfContext perf)
    {
        ArgumentNullException.ThrowIfNull(perf);
        perf.Measure(50, static n => Bodies.Chain(n));
    }
}
