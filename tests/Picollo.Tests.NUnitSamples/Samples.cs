using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using NUnit.Framework;
using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.NUnit;

namespace Picollo.Tests.NUnitSamples;

public static class NUnitWork
{
    public static int ChainSteps { get; set; } = 200;

    public static ConcurrentQueue<(string Name, long Start, long End)> Timeline { get; } = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long Chain(int steps)
    {
        long x = steps;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005L) + 1442695040888963407L;
        return x;
    }
}

public class NUnitBudgets
{
    [PerfTest(Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", MaxP99 = "tsc:100000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Met() => NUnitWork.Chain(50);

    [PerfTest(Counters = "tsc,allocated-bytes", ZeroBudget = "allocated-bytes", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public object Broken() => new byte[64];

    [PerfTest(MaxP99 = "tsc:abc")]
    public long Invalid() => NUnitWork.Chain(10);
}

// The portable clock, named as a user names it: counts on every OS (the default time counter where tsc cannot count).
public class NUnitClockBudgets
{
    [PerfTest(Counters = "clock,allocated-bytes", ZeroBudget = "allocated-bytes", MaxP99 = "clock:100000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Met() => NUnitWork.Chain(50);

    // A chain of 50 steps takes tens of nanoseconds: a budget of 1 ns per operation cannot hold when the clock counts.
    [PerfTest(Counters = "clock", MaxP99 = "clock:1", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Broken() => NUnitWork.Chain(50);
}

public class NUnitUnavailable
{
    [PerfTest(Counters = "cycles", MaxP99 = "cycles:1000000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long OnlyHardware() => NUnitWork.Chain(50);

    [PerfTest(Counters = "tsc,cycles", MaxP99 = "tsc:1000000000,cycles:1000000000", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long HardwareAndTime() => NUnitWork.Chain(50);
}

public class NUnitBaselines
{
    [PerfTest(Counters = "tsc,allocated-bytes", Samples = 200, TimeBudgetMs = 300, WarmupMs = 50)]
    public long Body() => NUnitWork.Chain(NUnitWork.ChainSteps);

    [PerfTestCase(16, Counters = "tsc,allocated-bytes", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    [PerfTestCase(64, Counters = "tsc,allocated-bytes", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public void Cases(int steps, PerfContext perf)
    {
        ArgumentNullException.ThrowIfNull(perf);
        PerfResult result = perf.Measure(steps, static s => NUnitWork.Chain(s));
        result.AllocatedBytes.ShouldHaveZeroBudget();
        result.ShouldNotRegress();
    }
}

[Parallelizable(ParallelScope.All)]
public class NUnitIsolation
{
    [Test]
    public void BusyOne() => Spin();

    [Test]
    public void BusyTwo() => Spin();

    [PerfTest(Counters = "tsc", Baseline = false, Samples = 100, TimeBudgetMs = 300, WarmupMs = 20)]
    public void Measured(PerfContext perf)
    {
        ArgumentNullException.ThrowIfNull(perf);
        long start = Stopwatch.GetTimestamp();
        perf.Measure(static () => NUnitWork.Chain(50));
        NUnitWork.Timeline.Enqueue(("perf", start, Stopwatch.GetTimestamp()));
    }

    private static void Spin()
    {
        long start = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(start).TotalMilliseconds < 400)
            Thread.SpinWait(100);
        NUnitWork.Timeline.Enqueue(("busy", start, Stopwatch.GetTimestamp()));
    }
}

public class NUnitRefused
{
    [PerfTest]
    public async Task<long> Async()
    {
        await Task.Yield();
        return NUnitWork.Chain(10);
    }

    [PerfTestCase(1, 2)]
    public long WrongCount(int steps) => NUnitWork.Chain(steps);
}

public class NUnitMore
{
    [PerfTest(MaxP99 = "cycles:1000000000", Fallback = "cycles->tsc", Baseline = false, Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long Fallback() => NUnitWork.Chain(50);

    [PerfTest(Counters = "tsc,allocated-bytes", Samples = 100, TimeBudgetMs = 200, WarmupMs = 20)]
    public long NoBaselineYet() => NUnitWork.Chain(50);

    // Far longer than [CancelAfter] allows: the measurement must stop between samples.
    [PerfTest(Counters = "tsc,task-clock", Baseline = false, Samples = 1_000_000, TimeBudgetMs = 60_000, WarmupMs = 20)]
    [CancelAfter(1_000)]
    public long Cancelled() => NUnitWork.Chain(50);
}
