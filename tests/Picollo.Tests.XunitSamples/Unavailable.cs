using Picollo.Testing;
using Picollo.Testing.Xunit;

namespace Picollo.Tests.XunitSamples;

// cycles and instructions need a hardware PMU: on a VM or CI runner without one they are unavailable.
public class OnlyHardwareCounters
{
    [PerfFact(Counters = "cycles", MaxP99 = "cycles:1000000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}

public class HardwareAndTime
{
    [PerfFact(Counters = "tsc,cycles", MaxP99 = "tsc:1000000000,cycles:1000000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}

public class FallbackToTsc
{
    [PerfFact(MaxP99 = "cycles:1000000000", Fallback = "cycles->tsc", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}

public class FailWhenUnavailable
{
    [PerfFact(Counters = "tsc,cycles", MaxP99 = "cycles:1000000000", WhenUnavailable = UnavailableCounterPolicy.Fail, Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}
