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

public class BudgetAndBaseline
{
    /// <summary>Whether the body allocates: off while the acceptance test records its baseline, on to break both checks.</summary>
    public static bool Allocates { get; set; }

    // A budget long enough for the warmup to see the body's final code on a busy machine: a verdict on code that was not
    // final does not fail.
    [PerfFact(Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", Samples = 100, TimeBudgetMs = 2000, WarmupMs = 20)]
    public object? Work() => Allocates ? new byte[64] : null;
}

// The portable clock, named as a user names it: counts on every OS (the default time counter where tsc cannot count).
public class ClockBudgets
{
    [PerfFact(Counters = "clock,allocated-bytes", ZeroBudget = "allocated-bytes", MaxP99 = "clock:100000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Met() => SampleWork.Chain(50);

    // A chain of 50 steps takes tens of nanoseconds: a budget of 1 ns per operation cannot hold when the clock counts.
    [PerfFact(Counters = "clock", MaxP99 = "clock:1", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Broken() => SampleWork.Chain(50);
}
