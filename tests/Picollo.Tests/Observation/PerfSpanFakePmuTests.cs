using Picollo.Counters;
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

    private static FakePerfKernel RdpmcKernel() => new() { TimeEnabled = 5, TimeRunning = 5, PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent(index: 0) };

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
        var kernel = new FakePerfKernel { TimeEnabled = 5, TimeRunning = 5 };
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
