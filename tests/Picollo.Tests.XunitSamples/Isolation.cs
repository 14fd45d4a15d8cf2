using System.Collections.Concurrent;
using System.Diagnostics;
using Picollo.Testing;
using Picollo.Testing.Xunit;
using Xunit;

namespace Picollo.Tests.XunitSamples;

/// <summary>When each sample test ran, for the acceptance test that perf tests run alone.</summary>
public static class Timeline
{
    public static ConcurrentQueue<(string Name, long Start, long End)> Spans { get; } = new();

    public static void Add(string name, long start) => Spans.Enqueue((name, start, Stopwatch.GetTimestamp()));

    // A test that keeps a core busy for 400 ms, as a CPU-bound neighbour of a perf test would.
    public static void Spin()
    {
        long start = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(start).TotalMilliseconds < 400)
            Thread.SpinWait(100);
        Add("busy", start);
    }
}

public class BusyNeighbour
{
    [Fact]
    public void Spins() => Timeline.Spin();
}

public class OtherBusyNeighbour
{
    [Fact]
    public void Spins() => Timeline.Spin();
}

public class MeasuredBesideNeighbours
{
    [PerfFact(Counters = "tsc", Baseline = false, Samples = 100, TimeBudgetMs = 300, WarmupMs = 20)]
    public void Chain(PerfContext perf)
    {
        ArgumentNullException.ThrowIfNull(perf);
        long start = Stopwatch.GetTimestamp();
        perf.Measure(static () => SampleWork.Chain(50));
        Timeline.Add("perf", start);
    }
}

public class Cancelled
{
    // Far longer than the acceptance test waits before it cancels the run.
    [PerfFact(Counters = "tsc,task-clock", Baseline = false, Samples = 1_000_000, TimeBudgetMs = 60_000, WarmupMs = 20)]
    public long Chain() => SampleWork.Chain(50);
}
