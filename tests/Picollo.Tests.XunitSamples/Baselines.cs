using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.Xunit;
using Xunit;

namespace Picollo.Tests.XunitSamples;

public class BaselineBody
{
    [PerfFact(Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 50)]
    public long Chain() => SampleWork.Chain(SampleWork.ChainSteps);
}

public class BaselineTheory
{
    [PerfTheory(Counters = "tsc,allocated-bytes", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    [InlineData(16)]
    [InlineData(64)]
    public long Chain(int steps) => SampleWork.Chain(steps);
}

public class ContextTheory
{
    // The trailing PerfContext is optional so xunit.analyzers accept rows without a value for it (xUnit1009).
    [PerfTheory(Counters = "tsc,allocated-bytes", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    [InlineData(16)]
    [InlineData(64)]
    public void Chain(int steps, PerfContext perf = null!)
    {
        ArgumentNullException.ThrowIfNull(perf);
        PerfResult result = perf.Measure(steps, static s => SampleWork.Chain(s));
        result.AllocatedBytes.ShouldHaveZeroBudget();
        result.ShouldNotRegress();
    }
}
