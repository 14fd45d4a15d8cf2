using Picollo.Testing;
using Picollo.Testing.Xunit;
using Xunit;

namespace Picollo.Tests.XunitSamples;

// The Against knob: the body is the candidate, the named method the reference, measured side by side. Large effects (2×,
// 3×) only, so the verdicts hold on a busy 2-core machine; short measurements.
public class AgainstFaster
{
    private static byte[]? s_sink;

    // The reference allocates and the candidate does not: ZeroBudget holds, because budgets apply to the candidate.
    [PerfFact(Against = nameof(Naive), MinSpeedup = 1.5, Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Fast() => SampleWork.Chain(200);

    [PerfTheory(Against = nameof(NaiveRow), MinSpeedup = 1.5, Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    [InlineData(200)]
    public long FastRow(int steps) => SampleWork.Chain(steps);

    public static long Naive()
    {
        s_sink = new byte[32];
        return SampleWork.Chain(400);
    }

    public static long NaiveRow(int steps) => SampleWork.Chain(steps * 2);
}

public class AgainstEqual
{
    [PerfFact(Against = nameof(Same), MinSpeedup = 1.5, Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Candidate() => SampleWork.Chain(200);

    public static long Same() => SampleWork.Chain(200);
}

public class AgainstSlower
{
    [PerfFact(Against = nameof(Reference), MaxSlowdown = 0.05, Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 20)]
    public long Candidate() => SampleWork.Chain(600);

    public static long Reference() => SampleWork.Chain(200);
}

public class AgainstRefused
{
    [PerfFact(Against = "NaiveCont")]
    public long Typo() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(TakesSteps))]
    public long OtherParameters() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(ReturnsInt))]
    public long OtherReturnType() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(Itself))]
    public long Itself() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(NaiveCount))]
    public void WithContext(PerfContext perf) => perf.Measure(static () => SampleWork.Chain(10));

    [PerfFact(MinSpeedup = 2.0)]
    public long SpeedupWithoutAgainst() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(NaiveCount), MinSpeedup = 0)]
    public long ZeroSpeedup() => SampleWork.Chain(10);

    [PerfFact(Against = nameof(Throws), Counters = "tsc", Samples = 20, TimeBudgetMs = 50, WarmupMs = 0)]
    public long ReferenceThrows() => SampleWork.Chain(10);

    public static long NaiveCount() => SampleWork.Chain(20);

    public static long TakesSteps(int steps) => SampleWork.Chain(steps);

    public static int ReturnsInt() => (int)SampleWork.Chain(20);

    public static long Throws() => throw new InvalidOperationException("the reference has no input.");
}
