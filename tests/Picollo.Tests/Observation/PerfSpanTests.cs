using Picollo.Counters;
using Picollo.Metrics;
using Picollo.Observation;
using Picollo.Tests.PerfEvents;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Observation;

/// <summary>Spans with the default counters on the real machine: what a span records, nesting, hops, the registry.</summary>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfSpanTests
{
    private static byte[]? s_keep;

    internal static string UniqueName(string prefix) => prefix + "-" + Guid.NewGuid().ToString("N")[..8];

    [Fact]
    public void Enter_AllocatingBody_RecordsTheExactBytesAndAPositiveTimeForEverySpan()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("allocating"));

        for (int i = 0; i < 200; i++)
        {
            using (span.Enter())
                s_keep = new byte[1000];
        }

        span.Counters.Select(static c => c.Name).ShouldBe([CounterNames.Tsc, CounterNames.AllocatedBytes]);
        HdrHistogram allocated = span.Counters[1].Histogram;
        allocated.TotalCount.ShouldBe(200UL);
        // new byte[1000] is 1,024 bytes on x64 (16-byte header, 8-byte length, 1,000 rounded up to 8): every span, exactly.
        allocated.GetPercentile(0).Value.ShouldBe(allocated.GetPercentile(100).Value);
        SameBucket(allocated, 1024, allocated.GetPercentile(50).Value).ShouldBeTrue();
        span.Counters[0].Histogram.TotalCount.ShouldBe(200UL);
        span.Counters[0].Histogram.GetPercentile(0).Value.ShouldBeGreaterThan(0UL);
        span.ThreadHops.ShouldBe(0);
    }

    [Fact]
    public void Enter_Nested_TheOuterSpanIncludesTheInnerOne()
    {
        PerfSpan outer = PerfSpan.Create(UniqueName("outer"), CounterNames.AllocatedBytes);
        PerfSpan inner = PerfSpan.Create(UniqueName("inner"), CounterNames.AllocatedBytes);

        for (int round = 0; round < 2; round++)
        {
            using (outer.Enter())
            {
                s_keep = new byte[1000];
                using (inner.Enter())
                    s_keep = new byte[4000];
            }
        }

        // The first round's outer span also holds the inner span's one-time setup on this thread (its histogram shard).
        ulong innerBytes = inner.Counters[0].Histogram.GetPercentile(100).Value;
        ulong outerBytes = outer.Counters[0].Histogram.GetPercentile(0).Value;
        SameBucket(inner.Counters[0].Histogram, 4024, innerBytes).ShouldBeTrue();
        SameBucket(outer.Counters[0].Histogram, 4024 + 1024, outerBytes).ShouldBeTrue();
    }

    [Fact]
    public void Dispose_OnAnotherThread_CountsAHopAndRecordsNothing()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("hopping"));
        PerfSpanScope scope = span.Enter();

        var other = new Thread(() => scope.Dispose());
        other.Start();
        other.Join();

        span.ThreadHops.ShouldBe(1);
        span.Counters.ShouldAllBe(c => c.Histogram.TotalCount == 0UL);
    }

    [Fact]
    public async Task Dispose_AfterAnAwaitThatResumedElsewhere_IsCountedAsAHop()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("async"));

        // A thread-pool continuation never runs on this dedicated thread, and Task.Yield never completes synchronously: the
        // await hops for sure. (Task.Delay(1) completed before it was awaited when the thread was preempted for a
        // millisecond, in a CI run beside a busy core, and the continuation stayed on this thread.)
        await Task.Factory.StartNew(
            async () =>
            {
                using (span.Enter())
                    await Task.Yield();
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default).Unwrap();

        span.ThreadHops.ShouldBe(1);
        span.Counters[0].Histogram.TotalCount.ShouldBe(0UL);
    }

    [Fact]
    public void Dispose_Twice_RecordsOnce()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("twice"));
        PerfSpanScope scope = span.Enter();

        scope.Dispose();
        scope.Dispose();

        scope.Span.ShouldBeNull();
        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL);
    }

    [Fact]
    public void Enter_SpansDisabled_ReadsAndRecordsNothing()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("disabled"));
        PerfSpan.Enabled = false;
        try
        {
            using (PerfSpanScope scope = span.Enter())
                scope.Span.ShouldBeNull();
        }
        finally
        {
            PerfSpan.Enabled = true;
        }

        span.Counters[0].Histogram.TotalCount.ShouldBe(0UL);
    }

    [Fact]
    public void Enter_SteadyState_AllocatesNothing()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("steady"));
        using (span.Enter())
        {
        }

        // The least of three windows: a span that allocates shows in every window (10,000 spans: ≥ 10,000 bytes), whereas a
        // one-off allocation of the runtime on this thread while parallel tests run (JIT, type loading) shows in one.
        Enumerable.Range(0, 3).Min(_ => AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 10_000; i++)
            {
                using (span.Enter())
                {
                }
            }
        })).ShouldBe(0L);
        span.Counters[1].Histogram.GetPercentile(100).Value.ShouldBe(0UL, "an empty span allocates nothing, so it records 0 bytes");
    }

    [Fact]
    public void Create_SameNameAndCounters_ReturnsTheSameSpan()
    {
        string name = UniqueName("shared");

        PerfSpan first = PerfSpan.Create(name);
        PerfSpan second = PerfSpan.Create(name, CounterNames.AllocatedBytes, "TSC");

        second.ShouldBeSameAs(first);
        PerfSpan.All.ShouldContain(first);
        PerfSpan.All.Count(s => s.Name == name).ShouldBe(1);
    }

    [Fact]
    public void Create_SameNameOtherCounters_ThrowsNamingBothSets()
    {
        string name = UniqueName("conflict");
        PerfSpan.Create(name);

        var ex = Should.Throw<ArgumentException>(() => PerfSpan.Create(name, CounterNames.Tsc));

        ex.Message.ShouldContain($"A span named '{name}' already exists with counters [tsc, allocated-bytes]");
        ex.Message.ShouldContain("this call asks for [tsc]");
        ex.Message.ShouldContain("give this one another name");
    }

    [Theory]
    [InlineData(CounterNames.Gen0Collections)]
    [InlineData(CounterNames.JitMethods)]
    public void Create_ProcessWideRuntimeCounter_ThrowsWithWhatSpansCount(string counter)
    {
        var ex = Should.Throw<ArgumentException>(() => PerfSpan.Create(UniqueName("runtime"), counter));

        ex.Message.ShouldContain($"'{counter}' is a .NET runtime counter of the whole process");
        ex.Message.ShouldContain("Spans count tsc, allocated-bytes and perf_event counters");
    }

    [Fact]
    public void Create_UnknownCounter_ThrowsWithTheSpanAndASuggestion()
    {
        var ex = Should.Throw<ArgumentException>(() => PerfSpan.Create(UniqueName("unknown"), "cylces"));

        ex.Message.ShouldStartWith("Span 'unknown-");
        ex.Message.ShouldContain("cylces");
        ex.Message.ShouldContain("cycles");
    }

    [Fact]
    public void Create_TooManyPerfCounters_ThrowsWithTheLimit()
    {
        var ex = Should.Throw<ArgumentException>(() => PerfSpan.Create(
            UniqueName("many"), "cycles", "instructions", "branches", "branch-misses", "cache-misses", "task-clock", "page-faults"));

        ex.Message.ShouldContain("asks for 7 perf_event counters");
        ex.Message.ShouldContain("at most 6");
    }

    [Fact]
    public void Create_EmptyName_Throws()
    {
        Should.Throw<ArgumentException>(() => PerfSpan.Create(" "));
    }

    [Fact]
    public void Create_CyclesOnThisMachine_CountsOrSaysWhyAndTheOtherCountersStillCount()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("cycles"), CounterNames.Tsc, CounterNames.Cycles);
        using (span.Enter())
        {
        }

        PerfSpanCounter cycles = span.Counters.Single(c => c.Name == CounterNames.Cycles);
        if (!cycles.IsAvailable)
        {
            cycles.UnavailableReason.ShouldNotBeNullOrWhiteSpace();
            cycles.Histogram.TotalCount.ShouldBe(0UL);
        }

        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL);
    }

    [Fact]
    public void Create_SoftwareCounterWithoutSyscallReads_IsUnavailableWithTheCostAndTheOption()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("sw"), CounterNames.Tsc, CounterNames.TaskClock);

        PerfSpanCounter taskClock = span.Counters.Single(c => c.Name == CounterNames.TaskClock);
        taskClock.IsAvailable.ShouldBeFalse();
        taskClock.UnavailableReason.ShouldBe(
            "kernel software counters have no hardware counter index, so each read is a read() system call (microseconds each, " +
            "two per span); spans count them only when asked: PerfSpanOptions.AllowSyscallReads = true.");
    }

    [Fact]
    public void Enter_TaskClockWithSyscallReads_CountsTheThreadsCpuTime()
    {
        PerfSpan span = PerfSpan.Create(UniqueName("cpu"), new PerfSpanOptions { Counters = [CounterNames.TaskClock], AllowSyscallReads = true });

        using (span.Enter())
            SpinCpu(TimeSpan.FromMilliseconds(5));

        PerfSpanCounter taskClock = span.Counters.Single();
        taskClock.IsAvailable.ShouldBeTrue();
        taskClock.ReadsBySyscall.ShouldBeTrue();
        taskClock.Histogram.TotalCount.ShouldBe(1UL);
        taskClock.Histogram.GetPercentile(100).Value.ShouldBeGreaterThan(4_000_000UL, "5 ms of this thread's CPU time, in ns");
    }

    /// <summary>Busy for <paramref name="cpu"/> of this thread's CPU time (wall time would include a busy sibling's preemption).</summary>
    internal static void SpinCpu(TimeSpan cpu)
    {
        TimeSpan start = ThreadCpu();
        while (ThreadCpu() - start < cpu)
            Thread.SpinWait(100);
    }

    internal static bool SameBucket(HdrHistogram histogram, ulong expected, ulong actual) =>
        histogram.Layout.GetLogicalIndexForValue(expected) == histogram.Layout.GetLogicalIndexForValue(actual);

    private static TimeSpan ThreadCpu() =>
        TimeSpan.FromTicks((long)(Picollo.Interop.Clock.GetNanoseconds(Picollo.Interop.Clock.CLOCK_THREAD_CPUTIME_ID) / 100));
}
