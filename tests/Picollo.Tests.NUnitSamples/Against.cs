using Picollo.Testing.NUnit;

namespace Picollo.Tests.NUnitSamples;

// The Against knob as in the xunit samples: large effects only, short measurements.
public class NUnitAgainst
{
    [PerfTest(Against = nameof(Naive), MinSpeedup = 1.5, Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Faster() => NUnitWork.Chain(200);

    [PerfTest(Against = nameof(Same), MinSpeedup = 1.5, Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Equal() => NUnitWork.Chain(200);

    [PerfTestCase(600, Against = nameof(Reference), MaxSlowdown = 0.05, Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Slower(int steps) => NUnitWork.Chain(steps);

    [PerfTest(Against = "Naiv")]
    public long Typo() => NUnitWork.Chain(10);

    public static long Naive() => NUnitWork.Chain(400);

    public static long Same() => NUnitWork.Chain(200);

    public static long Reference(int steps) => NUnitWork.Chain(steps / 3);
}
