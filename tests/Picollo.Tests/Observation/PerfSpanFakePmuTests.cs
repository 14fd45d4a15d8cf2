using Picollo.Counters;
using Picollo.Metrics;
using Picollo.Observation;
using Picollo.PerfEvents;
using Picollo.Tests.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Observation;

/// <summary>
/// Spans with hardware counters, against a scripted kernel with a PMU (this VM has none): which counters a span counts
/// and how (rdpmc or read()), the values and IPC it records, the sessions each thread opens and closes.
/// </summary>
/// <remarks>
/// The synthetic mmap pages allow rdpmc (cap_user_rdpmc) but publish counter index 0, so the native reader falls back to
/// the fake kernel's read(): the rdpmc instruction itself cannot run on this machine (docs/ARCHITECTURE.md, "Platform facts").
/// </remarks>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfSpanFakePmuTests
{
    private const uint Hw = (uint)PerfEventType.Hardware;

    private static FakePerfKernel RdpmcKernel() => new() { TimeEnabled = 5, TimeRunning = 5, TimeAdvancePerRead = 10, PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent(index: 0) };

    private static FakePerfKernel.FakeEvent Latest(FakePerfKernel kernel, PerfHardwareCounterId id) =>
        kernel.Opened.Last(e => e.Attr.Type == Hw && e.Attr.Config == (ulong)id && kernel.OpenFds.Contains(e.Fd));

    [Fact]
    public void Create_RdpmcAllowed_CountsCyclesAndInstructionsWithoutSystemCalls()
    {
        var kernel = RdpmcKernel();

        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("pmu"), new PerfSpanOptions { Counters = [CounterNames.Tsc, "cycles", "instructions"] }, kernel);

        span.Counters.Select(static c => (c.Name, c.IsAvailable, c.ReadsBySyscall)).ShouldBe(
            [(CounterNames.Tsc, true, false), (CounterNames.Cycles, true, false), (CounterNames.Instructions, true, false)]);
        span.Ipc.ShouldNotBeNull();
        kernel.OpenFds.ShouldBeEmpty("the probe session that decided this is closed; threads open their own on their first span");
    }

    [Fact]
    public void Exit_HardwareCounters_RecordsTheDeltasAndTheirInstructionsPerCycle()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("ipc"), new PerfSpanOptions { Counters = ["cycles", "instructions"] }, kernel);

        RunOnNewThread(() =>
        {
            // The thread's session opens at its first enter; the counters then read 1,000 and 1,500.
            PerfSpanScope scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value.ShouldBe(0UL);
            scope.Dispose();

            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000;
            Latest(kernel, PerfHardwareCounterId.Instructions).Value = 1_500;
            scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 41_000;
            Latest(kernel, PerfHardwareCounterId.Instructions).Value = 101_500;
            scope.Dispose();
        });

        span.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(39_600UL, 40_400UL, "40,000 cycles within the histogram's 1% error");
        span.Counters[1].Histogram.GetPercentile(100).Value.ShouldBeInRange(99_000UL, 101_000UL);
        span.Ipc!.TotalCount.ShouldBe(1UL, "the first span counted 0 cycles: no IPC for it");
        span.Ipc.GetPercentile(100).Value.ShouldBeInRange(2_480UL, 2_520UL, "100,000 instructions in 40,000 cycles: 2.5 IPC, in thousandths");
    }

    [Fact]
    public void Create_PagesForbidRdpmc_HardwareCountersAreUnavailableWithTheSysctlAndTheOption()
    {
        var kernel = new FakePerfKernel
        {
            TimeEnabled = 5,
            TimeRunning = 5,
            TimeAdvancePerRead = 10,
            PageFactory = _ => new SyntheticPerfPage { Capabilities = 1UL << 1, PmcWidth = 48 },
        };

        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("nordpmc"), new PerfSpanOptions { Counters = ["cycles", "instructions"] }, kernel);

        span.Counters.ShouldAllBe(c => !c.IsAvailable);
        span.Counters[0].UnavailableReason!.ShouldStartWith("cycles, instructions: the kernel does not let this thread read them with rdpmc");
        span.Counters[0].UnavailableReason!.ShouldContain("echo 1 | sudo tee /sys/bus/event_source/devices/cpu/rdpmc");
        span.Counters[0].UnavailableReason!.ShouldContain("PerfSpanOptions.AllowSyscallReads = true");
        span.Ipc.ShouldBeNull();
    }

    [Fact]
    public void Create_NoRdpmcButSyscallReadsAllowed_CountsThemThroughRead()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 5, TimeRunning = 5, TimeAdvancePerRead = 10 };
        PerfSpan span = PerfSpan.Create(
            PerfSpanTests.UniqueName("syscall"), new PerfSpanOptions { Counters = ["cycles"], AllowSyscallReads = true }, kernel);

        RunOnNewThread(() =>
        {
            PerfSpanScope scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 7_000;
            scope.Dispose();
        });

        span.Counters[0].IsAvailable.ShouldBeTrue();
        span.Counters[0].ReadsBySyscall.ShouldBeTrue();
        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL);
        span.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(6_950UL, 7_050UL);
    }

    [Fact]
    public void Create_SoftwareBesideHardware_TheHardwareCountersStillReadByRdpmc()
    {
        var kernel = RdpmcKernel();

        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("mixed"), new PerfSpanOptions { Counters = ["cycles", "task-clock"] }, kernel);

        span.Counters[0].IsAvailable.ShouldBeTrue();
        span.Counters[0].ReadsBySyscall.ShouldBeFalse();
        span.Counters[1].Name.ShouldBe(CounterNames.TaskClock);
        span.Counters[1].UnavailableReason.ShouldNotBeNull().ShouldContain("AllowSyscallReads");
        RunOnNewThread(() => span.Enter().Dispose());
        kernel.Opened.Last().Attr.Type.ShouldBe(Hw, "the threads' sessions leave the software counter out (it would force read() for the group)");
    }

    [Fact]
    public void Exit_GroupLostItsCounters_RecordsNothingOfThatSpanAndCountsIt()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("eof"), new PerfSpanOptions { Counters = [CounterNames.Tsc, "cycles"] }, kernel);

        RunOnNewThread(() =>
        {
            PerfSpanScope scope = span.Enter();
            kernel.ScriptRead(0); // the next read() returns end of file: a group in error state
            scope.Dispose();
            span.Enter().Dispose();
        });

        span.UncountedSpans.ShouldBe(1);
        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL, "the TSC of the failed span is not recorded either: all counters or none");
        span.Counters[1].Histogram.TotalCount.ShouldBe(1UL);
    }

    [Fact]
    public void ThreadExit_ItsSessionIsClosedBySweeping()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("exit"), new PerfSpanOptions { Counters = ["cycles", "instructions"] }, kernel);

        RunOnNewThread(() =>
        {
            span.Enter().Dispose();
            kernel.OpenFds.Count.ShouldBe(2, "this thread's own group, opened at its first span");
        });
        SpanSessionSweeper.Sweep();

        kernel.OpenFds.ShouldBeEmpty();
        kernel.MappedPages.ShouldBeEmpty();
    }

    [Fact]
    public void Exit_Multiplexed_ScalesTheSpansOwnIntervalNotTheDifferenceOfCumulativeScaledCounts()
    {
        var kernel = RdpmcKernel();
        kernel.TimeAdvancePerRead = 0;
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("mux"), new PerfSpanOptions { Counters = ["cycles"] }, kernel);

        RunOnNewThread(() =>
        {
            span.Enter().Dispose(); // opens the thread's session; not counted (its times did not move)

            // So far the group ran half the time: 1,000,000 counted in 1,000 of 2,000 ns (scaled: 2,000,000).
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000_000;
            (kernel.TimeEnabled, kernel.TimeRunning) = (2_000, 1_000);
            PerfSpanScope scope = span.Enter();
            // During the span it ran all the time: +100 counts in 100 ns. The cumulative scaled count drops to 1,909,281.
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000_100;
            (kernel.TimeEnabled, kernel.TimeRunning) = (2_100, 1_100);
            scope.Dispose();

            // Then a span that ran a quarter of its time: +50 counts in 25 of 100 ns, extrapolated to 200.
            scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000_150;
            (kernel.TimeEnabled, kernel.TimeRunning) = (2_200, 1_125);
            scope.Dispose();
        });

        HdrHistogram cycles = span.Counters.Single(static c => c.Name == CounterNames.Cycles).Histogram;
        cycles.TotalCount.ShouldBe(2UL);
        cycles.OverflowCount.ShouldBe(0UL);
        cycles.GetPercentile(0).Value.ShouldBeInRange(99UL, 101UL, "the span's 100 cycles, not a wrapped difference");
        cycles.GetPercentile(100).Value.ShouldBeInRange(198UL, 202UL, "50 counted in a quarter of the span: 200");
        span.UncountedSpans.ShouldBe(1, "the first span, whose counters did not run");
    }

    [Fact]
    public void Exit_CounterMultiplexedOutForTheWholeSpan_RecordsNothingOfIt()
    {
        var kernel = RdpmcKernel();
        kernel.TimeAdvancePerRead = 0;
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("muxout"), new PerfSpanOptions { Counters = [CounterNames.Tsc, "cycles"] }, kernel);

        RunOnNewThread(() =>
        {
            (kernel.TimeEnabled, kernel.TimeRunning) = (50, 0);
            PerfSpanScope scope = span.Enter();
            // Enabled 100 ns more, never on a counter: "not counted", not 0 and not the whole session's count.
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 5_000_000;
            kernel.TimeEnabled = 150;
            scope.Dispose();
        });

        span.Counters.ShouldAllBe(static c => c.Histogram.TotalCount == 0, "all counters or none: the TSC is not recorded either");
        span.UncountedSpans.ShouldBe(1);
    }

    [Fact]
    public void Enter_ACounterFailsToOpenOnALaterThread_ThatThreadCountsNoneRatherThanZeros()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("partial"), new PerfSpanOptions { Counters = ["cycles", "instructions"] }, kernel);
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.Instructions)] = 24; // EMFILE from now on

        RunOnNewThread(() =>
        {
            for (int i = 0; i < 3; i++)
            {
                using (span.Enter())
                {
                }
            }
        });

        span.Counters.ShouldAllBe(static c => c.Histogram.TotalCount == 0);
        span.Ipc!.TotalCount.ShouldBe(0UL);
        span.UncountedSpans.ShouldBe(3);
        kernel.OpenFds.ShouldBeEmpty("the incomplete session was closed at once");
    }

    [Fact]
    public void Exit_ScopesThatHoppedAwayForever_DoNotGrowTheirThreadsStack_AndLaterSpansStillCount()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("leak"), new PerfSpanOptions { Counters = ["cycles"] }, kernel);
        var hopped = new List<PerfSpanScope>();
        int capacity = 0;

        RunOnNewThread(() =>
        {
            // Each of these pushes a frame that its own thread never pops (their scopes are disposed elsewhere, below).
            for (int i = 0; i < 5_000; i++)
                hopped.Add(span.Enter());
            PerfSpanScope scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value += 1_000;
            scope.Dispose();
            capacity = SpanThread.CurrentOrNull!.PerfStackCapacity;
        });
        foreach (PerfSpanScope scope in hopped)
            scope.Dispose();

        capacity.ShouldBeLessThan(2 * 5_000, "the 5,000 leaked frames (two values each) did not all stay on the stack");
        span.ThreadHops.ShouldBe(5_000);
        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL);
        span.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(990UL, 1_010UL);
    }

    [Fact]
    public void Create_ACounterFailedToOpenForTheFirstSpan_IsProbedAgainForTheNext()
    {
        var kernel = RdpmcKernel();
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.CpuCycles)] = 24; // EMFILE while the first span is created
        PerfSpan first = PerfSpan.Create(PerfSpanTests.UniqueName("probe1"), new PerfSpanOptions { Counters = ["cycles"] }, kernel);
        kernel.OpenErrors.Clear();

        PerfSpan second = PerfSpan.Create(PerfSpanTests.UniqueName("probe2"), new PerfSpanOptions { Counters = ["cycles"] }, kernel);

        first.Counters[0].IsAvailable.ShouldBeFalse();
        second.Counters[0].IsAvailable.ShouldBeTrue("a shared plan is only one whose counters all opened");
    }

    [Fact]
    public void Exit_AnOverwrittenFrame_PopsNothing_SoNoLaterPushWritesIntoALiveFrame()
    {
        // Frames of different lengths on one thread, an out-of-order dispose, and a span whose session holds an event it
        // does not record (cycles failed at Create but opens on the thread), so a write into that slot is never checked.
        var kernel = new FakePerfKernel { TimeEnabled = 5, TimeRunning = 5, TimeAdvancePerRead = 10 };
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.CpuCycles)] = 24;
        PerfSpan p2 = PerfSpan.Create(PerfSpanTests.UniqueName("p2"), new PerfSpanOptions { Counters = ["cycles", "instructions", "cache-misses"], AllowSyscallReads = true }, kernel);
        kernel.OpenErrors.Clear();
        PerfSpan p1 = PerfSpan.Create(PerfSpanTests.UniqueName("p1"), new PerfSpanOptions { Counters = ["cycles"], AllowSyscallReads = true }, kernel);
        PerfSpan p3 = PerfSpan.Create(PerfSpanTests.UniqueName("p3"), new PerfSpanOptions { Counters = ["cycles", "instructions"], AllowSyscallReads = true }, kernel);

        RunOnNewThread(() =>
        {
            p1.Enter().Dispose();
            FakePerfKernel.FakeEvent p1Cycles = kernel.Opened.Last();
            p3.Enter().Dispose();
            p2.Enter().Dispose();
            FakePerfKernel.FakeEvent p2Instructions = kernel.Opened.Last(e => e.Attr.Config == (ulong)PerfHardwareCounterId.Instructions);

            PerfSpanScope q = p3.Enter();   // frame at 0, 3 slots
            PerfSpanScope r = p1.Enter();   // frame at 3, 2 slots
            q.Dispose();                    // out of order: the top goes back to 0
            PerfSpanScope z = p1.Enter();   // frame at 0
            p2Instructions.Value = 500;
            PerfSpanScope b = p2.Enter();   // frame at 2, 4 slots: covers r's stamp
            r.Dispose();                    // overwritten: uncounted, and must not move the top into b's frame
            p1Cycles.Value = 600_000;
            PerfSpanScope c = p1.Enter();
            c.Dispose();
            p2Instructions.Value = 1_000_000;
            b.Dispose();
            z.Dispose();
        });

        p2.Counters.Single(static c => c.Name == CounterNames.Instructions).Histogram.GetPercentile(100).Value
            .ShouldBeInRange(990_000UL, 1_010_000UL, "b's own 999,500 instructions, not a difference with another span's cycles");
        p1.UncountedSpans.ShouldBe(1, "r");
    }

    [Fact]
    public void Enter_SessionFailedToOpen_IsTriedAgainASecondLater()
    {
        var kernel = RdpmcKernel();
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("retry"), new PerfSpanOptions { Counters = ["cycles"] }, kernel);
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.CpuCycles)] = 24; // EMFILE for a moment

        RunOnNewThread(() =>
        {
            span.Enter().Dispose();
            span.Enter().Dispose(); // within the second: not tried again
            kernel.OpenErrors.Clear();
            Thread.Sleep(SpanThread.SessionRetryMilliseconds + 100);
            PerfSpanScope scope = span.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000;
            scope.Dispose();
        });

        span.UncountedSpans.ShouldBe(2);
        span.Counters[0].Histogram.TotalCount.ShouldBe(1UL, "the thread opened its session on the retry and counts again");
        span.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(990UL, 1_010UL);
    }

    [Fact]
    public void Spans_WithTheSameCounters_ShareOneSessionPerThread_AndNestedSpansEachGetTheirOwnDeltas()
    {
        var kernel = RdpmcKernel();
        var options = new PerfSpanOptions { Counters = ["cycles", "instructions"] };
        PerfSpan outer = PerfSpan.Create(PerfSpanTests.UniqueName("outer"), options, kernel);
        PerfSpan inner = PerfSpan.Create(PerfSpanTests.UniqueName("inner"), options, kernel);
        int opened = 0;

        RunOnNewThread(() =>
        {
            PerfSpanScope o = outer.Enter();
            PerfSpanScope i = inner.Enter();
            opened = kernel.OpenFds.Count;
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 300;
            i.Dispose();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 1_000;
            o.Dispose();
        });

        opened.ShouldBe(2, "one group (cycles, instructions) on this thread for both spans");
        inner.Counters.Single(static c => c.Name == CounterNames.Cycles).Histogram.GetPercentile(100).Value.ShouldBeInRange(297UL, 303UL, "the inner span's 300 cycles (1 % buckets)");
        outer.Counters.Single(static c => c.Name == CounterNames.Cycles).Histogram.GetPercentile(100).Value.ShouldBeInRange(990UL, 1_010UL);
    }

    [Fact]
    public void Exit_OuterDisposedBeforeInner_NoSpanRecordsAnotherSpansValues()
    {
        var kernel = RdpmcKernel();
        var options = new PerfSpanOptions { Counters = ["cycles"] };
        PerfSpan outer = PerfSpan.Create(PerfSpanTests.UniqueName("ooo-outer"), options, kernel);
        PerfSpan inner = PerfSpan.Create(PerfSpanTests.UniqueName("ooo-inner"), options, kernel);
        PerfSpan later = PerfSpan.Create(PerfSpanTests.UniqueName("ooo-later"), options, kernel);

        RunOnNewThread(() =>
        {
            PerfSpanScope o = outer.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 100;
            PerfSpanScope i = inner.Enter();
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 200;
            o.Dispose();                       // out of order: the inner's frame is released with the outer's
            PerfSpanScope l1 = later.Enter();  // takes the outer's place on the thread's stack,
            PerfSpanScope l2 = later.Enter();  // and this one the inner's
            Latest(kernel, PerfHardwareCounterId.CpuCycles).Value = 700;
            i.Dispose();                       // its frame holds another span's values now: not recorded
            l2.Dispose();
            l1.Dispose();
        });

        outer.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(198UL, 202UL);
        later.Counters[0].Histogram.TotalCount.ShouldBe(2UL);
        later.Counters[0].Histogram.GetPercentile(0).Value.ShouldBeInRange(495UL, 505UL);
        later.Counters[0].Histogram.GetPercentile(100).Value.ShouldBeInRange(495UL, 505UL);
        inner.Counters[0].Histogram.TotalCount.ShouldBe(0UL);
        inner.UncountedSpans.ShouldBe(1);
    }

    private static void RunOnNewThread(Action action)
    {
        Exception? failure = null;
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        thread.Start();
        thread.Join();
        if (failure is not null)
            throw new ShouldAssertException("On the span thread: " + failure.Message, failure);
    }
}
