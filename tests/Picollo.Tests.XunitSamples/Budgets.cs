using Picollo.Testing.Xunit;

namespace Picollo.Tests.XunitSamples;

// Short measurements: the acceptance tests run many of these.
public class BudgetMet
{
    [PerfFact(Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", MaxP99 = "tsc:100000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}

public class BudgetBroken
{
    [PerfFact(Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public object Allocates() => new byte[64];
}

public class InvalidValue
{
    [PerfFact(MaxP99 = "tsc:abc")]
    public long NotANumber() => SampleWork.Chain(10);

    [PerfFact(ZeroBudget = "allocated-byts")]
    public long UnknownCounter() => SampleWork.Chain(10);

    [PerfFact(Samples = -5)]
    public long NegativeSamples() => SampleWork.Chain(10);

    [PerfFact]
    public long Fine() => SampleWork.Chain(10);
}
