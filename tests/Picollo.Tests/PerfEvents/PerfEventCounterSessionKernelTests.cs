using System.Runtime.InteropServices;
using Picollo.PerfEvents;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>The session against this machine's kernel: software events count for real everywhere on Linux.</summary>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfEventCounterSessionKernelTests
{
    private const int PageSize = 4096;

    private static PerfEventCounterSession SoftwareSession() => PerfEventCounterSession.Factory
        .WithKernel(false)
        .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
        .WithSoftwareCounter(PerfSoftwareCounterId.PageFaults)
        .Create();

    [Fact]
    public void PageFaults_FreshlyTouchedPages_CountEachPageOnce()
    {
        const int Pages = 256;
        using PerfEventCounterSession session = SoftwareSession();
        session.UnavailableCounters.ShouldBeEmpty();
        TouchFreshPages(Pages); // JIT and first-call costs out of the measured region

        // 1 MiB is below the 2 MiB a transparent huge page needs: every 4 KiB page faults on its own.
        session.Read().ShouldBe(PerfEventReadStatus.Syscall);
        TouchFreshPages(Pages);
        session.Read().ShouldBe(PerfEventReadStatus.Syscall);
        session.Record().ShouldBeTrue();

        ulong faults = session.Counters.Software.PageFaults!.LastValue;
        faults.ShouldBeInRange((ulong)Pages, (ulong)Pages + 32); // the margin: faults of the two reads and of first-call stubs
    }

    [Fact]
    public void TaskClock_BusyLoopAroundASleep_CountsThisThreadsCpuTime_NotTheWallTime()
    {
        using PerfEventCounterSession session = SoftwareSession();
        BusyFor(TimeSpan.FromMilliseconds(20));

        // One read first: its first call's JIT compilation (milliseconds of this thread's CPU under load) would land
        // between the two thread-clock reads and outside the two counter reads (a CI run beside a busy core: 2.26 %).
        session.Read();
        long cpuBefore = ThreadCpuNanoseconds();
        session.Read();
        BusyFor(TimeSpan.FromMilliseconds(100));
        Thread.Sleep(100);
        BusyFor(TimeSpan.FromMilliseconds(100));
        session.Read();
        long cpuAfter = ThreadCpuNanoseconds();
        session.Record().ShouldBeTrue();

        // At least the thread's CPU time, and well below its wall time (the sleep makes that 1.5× the CPU time or more).
        // Not equal to the thread clock: task-clock counts the time the task was on a CPU as the perf context's clock sees
        // it, and the thread clock most likely leaves out what the hypervisor stole (this kernel has
        // CONFIG_PARAVIRT_TIME_ACCOUNTING). Beside a process that kept the other vCPU busy they differed by 9.9 and 15.4 ms
        // of 200 (4.9 % and 7.7 %, task-clock the larger); quiet, within 2 %.
        // The faults this is for read far outside [0.98, 1.25]: wall time instead of CPU time 1.5× or more, another
        // thread's time or none at all.
        double taskClock = session.Counters.Software.TaskClock!.LastValue;
        double threadCpu = cpuAfter - cpuBefore;
        string detail = $"task-clock {taskClock:N0} ns vs CLOCK_THREAD_CPUTIME_ID {threadCpu:N0} ns";
        (taskClock / threadCpu).ShouldBeInRange(0.98, 1.25, detail);
        session.Counters.Software.TaskClock.MultiplexingRatio.ShouldBe(1.0);
    }

    [Fact]
    public void GroupMember_OfAnotherSoftwarePmu_CountsFromTheFirstRead()
    {
        // Regression: a task-clock member added to a page-faults group that was already counting stayed
        // unscheduled (read 0) until the thread's next context switch; the session now enables the group
        // only once every member is in.
        using PerfEventCounterSession session = PerfEventCounterSession.Factory
            .WithKernel(false)
            .WithSoftwareCounter(PerfSoftwareCounterId.PageFaults)
            .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
            .Create();

        session.Read();
        BusyFor(TimeSpan.FromMilliseconds(5));
        session.Read();
        session.Record().ShouldBeTrue();

        session.Counters.Software.TaskClock!.LastValue.ShouldBeGreaterThan(1_000_000UL);
    }

    [Fact]
    public void Cycles_OnThisMachine_AreUnavailableWithAPreciseReasonOrCount()
    {
        using PerfEventCounterSession session = PerfEventCounterSession.Factory
            .WithKernel(false)
            .WithFixedCounters()
            .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
            .Create();

        session.Counters.Software.TaskClock.ShouldNotBeNull();
        session.Read().ShouldBe(PerfEventReadStatus.Syscall);
        if (PerfEventCounterSession.TryGetNumberOfCounters(out _, out _))
        {
            session.Counters.Hardware.CpuCycles.ShouldNotBeNull();
            return;
        }

        // This VM: "PMU not available due to virtualization" — hardware events fail with ENOENT.
        session.Counters.Hardware.CpuCycles.ShouldBeNull();
        session.UnavailableCounters.Select(d => d.Name).ShouldBe(["cycles", "instructions", "ref-cycles"]);
        string reason = session.UnavailableCounters[0].UnavailableReason!;
        reason.ShouldStartWith("ENOENT (No such file or directory) opening 'cycles': no hardware PMU");
        reason.ShouldContain("software counters (task-clock, page-faults)");
    }

    [Fact]
    public void TryGetNumberOfCounters_WithoutACorePmuInSysfs_IsFalseWithZeros()
    {
        bool hasPmu = Directory.Exists("/sys/bus/event_source/devices/cpu") || Directory.Exists("/sys/bus/event_source/devices/cpu_core");
        Assert.SkipWhen(hasPmu, "This machine has a core PMU in sysfs (PerfPmuTests checks the counts it reports).");

        bool known = PerfEventCounterSession.TryGetNumberOfCounters(out uint fixedCounters, out uint programmable);

        known.ShouldBeFalse();
        fixedCounters.ShouldBe(0U);
        programmable.ShouldBe(0U);
    }

    [Fact]
    public void ContextSwitches_UserModeOnly_AreReportedUnavailable()
    {
        using PerfEventCounterSession session = PerfEventCounterSession.Factory
            .WithKernel(false)
            .WithSoftwareCounter(PerfSoftwareCounterId.ContextSwitches)
            .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
            .Create();

        session.Counters.Software.ContextSwitches.ShouldBeNull();
        session.UnavailableCounters.ShouldHaveSingleItem().UnavailableReason!.ShouldContain("always reads 0");
    }

    [Fact]
    public void Sessions_OpenedAndDisposed1000Times_LeakNoFd()
    {
        int before = OpenPerfEventFds();

        // Ten thousand took 7.6 s of the suite's parallel part (issue 24); the fds are counted, so a thousand is enough.
        for (int i = 0; i < 1_000; i++)
        {
            using PerfEventCounterSession session = SoftwareSession();
            session.Read();
        }

        // A per-session leak would be >= 1,000 fds; the slack absorbs a perf fd another test may hold meanwhile.
        (OpenPerfEventFds() - before).ShouldBeLessThan(4);
    }

    [Fact]
    public void ReadAndRecord_AfterWarmup_AllocateNothing()
    {
        using PerfEventCounterSession session = SoftwareSession();
        for (int i = 0; i < 2_000; i++)
        {
            session.Read(forceSyscallRead: true);
            session.Record(deltas: true);
        }

        long allocated = AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 5_000; i++)
            {
                session.Read(forceSyscallRead: true);
                session.Record(deltas: true);
                session.Read();
                session.Record(deltas: false);
            }
        });
        allocated.ShouldBe(0L);
        session.Counters.Software.TaskClock!.Histogram.TotalCount.ShouldBeGreaterThan(10_000UL);
    }

    [Fact]
    public void ReadCumulative_RealGroup_IsMonotonicAndAllocatesNothing()
    {
        using PerfEventCounterSession session = SoftwareSession();
        var first = new ulong[2];
        var second = new ulong[2];
        session.ReadCumulative(first);
        session.ReadCumulative(second);

        AllocationProbe.Measure(() => session.ReadCumulative(second)).ShouldBe(0L);
        second[0].ShouldBeGreaterThan(first[0], "task-clock advances between reads");
        second[1].ShouldBeGreaterThanOrEqualTo(first[1]);
    }

    /// <summary>fds of this process that are perf events (/proc/self/fd/N -> anon_inode:[perf_event]).</summary>
    private static int OpenPerfEventFds() => Directory.GetFiles("/proc/self/fd")
        .Count(path => new FileInfo(path).LinkTarget is "anon_inode:[perf_event]");

    private static void TouchFreshPages(int pages)
    {
        // PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS: never touched, so the first write faults.
        nint region = Picollo.Interop.Mmap.Map(0, (nuint)(pages * PageSize), 0x3, 0x22, -1, 0);
        region.ShouldNotBe(Picollo.Interop.Mmap.MAP_FAILED);
        try
        {
            for (int i = 0; i < pages; i++)
                Marshal.WriteByte(region, i * PageSize, 1);
        }
        finally
        {
            Picollo.Interop.Mmap.Unmap(region, (nuint)(pages * PageSize)).ShouldBe(0);
        }
    }

    // Spins until the thread itself has run for the duration: on a loaded machine a wall-clock loop can
    // get a small share of a CPU, and the counters under test measure the thread's CPU time.
    private static void BusyFor(TimeSpan duration)
    {
        long end = ThreadCpuNanoseconds() + (long)(duration.TotalMilliseconds * 1_000_000);
        ulong x = 1;
        while (ThreadCpuNanoseconds() < end)
        {
            for (int i = 0; i < 1_000; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        }

        GC.KeepAlive(x);
    }

    private static long ThreadCpuNanoseconds() =>
        (long)Picollo.Interop.Clock.GetNanoseconds(Picollo.Interop.Clock.CLOCK_THREAD_CPUTIME_ID);
}
