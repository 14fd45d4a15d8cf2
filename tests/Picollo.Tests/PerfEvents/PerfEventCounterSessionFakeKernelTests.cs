using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>The session against a scripted kernel: the hardware paths this VM (no PMU) cannot exercise.</summary>
public sealed class PerfEventCounterSessionFakeKernelTests
{
    private const uint Hw = (uint)PerfEventType.Hardware;
    private const uint Sw = (uint)PerfEventType.Software;

    private static PerfEventCounterSession SeedSession(FakePerfKernel kernel, bool pinned = true) => PerfEventOpener.Open(
        PerfEventCounterSession.Factory
            .WithTarget(0, -1)
            .WithPinned(pinned)
            .WithKernel(false)
            .WithEnabled(true)
            .WithFixedCounters()
            .WithHardwareCounter(PerfHardwareCounterId.BranchMisses)
            .WithCacheCounter(PerfCacheCounterId.L1DReadMiss),
        kernel);

    private static void Set(FakePerfKernel kernel, ulong cycles, ulong instructions, ulong refCycles, ulong branchMisses, ulong l1dMisses)
    {
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.CpuCycles).Value = cycles;
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.Instructions).Value = instructions;
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.RefCpuCycles).Value = refCycles;
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.BranchMisses).Value = branchMisses;
        kernel.Event((uint)PerfEventType.HardwareCache, (ulong)PerfCacheCounterId.L1DReadMiss).Value = l1dMisses;
    }

    [Fact]
    public void Create_HardwarePresent_OpensOneGroupWithTheLeaderPinnedAndMembersFollowing()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = SeedSession(kernel);

        session.Counters.Count.ShouldBe(5);
        session.UnavailableCounters.ShouldBeEmpty();
        FakePerfKernel.FakeEvent leader = kernel.Opened[0];
        leader.GroupFd.ShouldBe(-1);
        (leader.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagPinned).ShouldNotBe(0UL);
        kernel.Opened.Skip(1).ShouldAllBe(e => e.GroupFd == leader.Fd && (e.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagPinned) == 0);
        kernel.Opened.ShouldAllBe(e => e.Pid == 0 && e.Cpu == -1 && e.Flags == 8 /* PERF_FLAG_FD_CLOEXEC */);
        kernel.Opened.ShouldAllBe(e => e.Attr.AttrSize == 128 && e.Attr.ReadFormat == (1 | 2 | 4 | 8));
        kernel.Opened.ShouldAllBe(e => (e.Attr.Flags & (Picollo.Interop.PerfEventAttr.FlagExcludeKernel | Picollo.Interop.PerfEventAttr.FlagExcludeHv))
            == (Picollo.Interop.PerfEventAttr.FlagExcludeKernel | Picollo.Interop.PerfEventAttr.FlagExcludeHv));
    }

    [Fact]
    public void Create_Enabled_OpensTheLeaderDisabledThenEnablesTheWholeGroupOnce()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = SeedSession(kernel);

        (kernel.Opened[0].Attr.Flags & Picollo.Interop.PerfEventAttr.FlagDisabled).ShouldNotBe(0UL);
        kernel.Opened.Skip(1).ShouldAllBe(e => (e.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagDisabled) == 0);
        kernel.Ioctls.ShouldBe([(kernel.Opened[0].Fd, 0x2400UL /* PERF_EVENT_IOC_ENABLE */, 1UL /* PERF_IOC_FLAG_GROUP */)]);
    }

    [Fact]
    public void Create_GroupEnableFails_EveryCounterIsUnavailableWithTheReasonAndNoFdStaysOpen()
    {
        var kernel = new FakePerfKernel { IoctlResult = -13 };
        using PerfEventCounterSession session = SeedSession(kernel);

        session.Counters.ShouldBeEmpty();
        session.UnavailableCounters.Count.ShouldBe(5);
        session.UnavailableCounters.ShouldAllBe(d => d.UnavailableReason!.Contains("PERF_EVENT_IOC_ENABLE") && d.UnavailableReason.Contains("EACCES"));
        kernel.OpenFds.ShouldBeEmpty();
        session.Read().ShouldBe(PerfEventReadStatus.NoCounters);
    }

    [Fact]
    public void ReadRecord_IdsListedInReverse_DeltasLandOnTheRightCounters()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 1000, TimeRunning = 1000 };
        using PerfEventCounterSession session = SeedSession(kernel);
        Set(kernel, 100, 200, 300, 4, 5);
        session.Read(forceSyscallRead: true).ShouldBe(PerfEventReadStatus.Syscall);
        Set(kernel, 1100, 2200, 3300, 44, 55);
        kernel.TimeEnabled = kernel.TimeRunning = 2000;
        int readsBefore = kernel.ReadCalls;

        session.Read(forceSyscallRead: true).ShouldBe(PerfEventReadStatus.Syscall);
        session.Record(deltas: true).ShouldBeTrue();

        kernel.ReadCalls.ShouldBe(readsBefore + 1, "one read() for the whole group");
        session.Counters.Hardware.CpuCycles!.LastValue.ShouldBe(1000UL);
        session.Counters.Hardware.Instructions!.LastValue.ShouldBe(2000UL);
        session.Counters.Hardware.RefCpuCycles!.LastValue.ShouldBe(3000UL);
        session.Counters.Hardware.BranchMisses!.LastValue.ShouldBe(40UL);
        session.Counters.Cache.L1DReadMiss!.LastValue.ShouldBe(50UL);
        session.Counters.Hardware.CpuCycles.Histogram.TotalCount.ShouldBe(1UL);
        session.Counters.Hardware.CpuCycles.MultiplexingRatio.ShouldBe(1.0);
        session.Counters.Software.TaskClock.ShouldBeNull();
    }

    [Fact]
    public void Counters_Names_FollowTheArticleAndPerf()
    {
        using PerfEventCounterSession session = SeedSession(new FakePerfKernel());

        session.Counters.Select(c => c.Name).ShouldBe(["Hardware:CpuCycles", "Hardware:Instructions", "Hardware:RefCpuCycles", "Hardware:BranchMisses", "HardwareCache:L1DReadMiss"]);
        session.Descriptors.Select(d => d.Name).ShouldBe(["cycles", "instructions", "ref-cycles", "branch-misses", "L1-dcache-load-misses"]);
    }

    [Fact]
    public void Record_Multiplexed_ScalesByEnabledOverRunningAndReportsTheRatio()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 1000, TimeRunning = 500 };
        using PerfEventCounterSession session = SeedSession(kernel, pinned: false);
        Set(kernel, 100, 0, 0, 0, 0);
        session.Read(true);
        Set(kernel, 1100, 0, 0, 0, 0);
        kernel.TimeEnabled = 3000; // +2000 enabled
        kernel.TimeRunning = 1500; // +1000 running: half the time on a counter

        session.Read(true);
        session.Record().ShouldBeTrue();

        session.Counters.Hardware.CpuCycles!.LastValue.ShouldBe(2000UL);
        session.Counters.Hardware.CpuCycles.MultiplexingRatio.ShouldBe(0.5);
    }

    [Fact]
    public void Record_GroupDidNotRunInTheInterval_SkipsAsNotCountedInsteadOfZero()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 1000, TimeRunning = 500 };
        using PerfEventCounterSession session = SeedSession(kernel, pinned: false);
        session.Read(true);
        kernel.TimeEnabled = 2000; // running unchanged

        session.Read(true);
        session.Record().ShouldBeTrue();

        PerfEventCounter cycles = session.Counters.Hardware.CpuCycles!;
        cycles.Histogram.TotalCount.ShouldBe(0UL);
        cycles.NotCountedSamples.ShouldBe(1);
    }

    [Fact]
    public void Read_PinnedGroupLostThePmu_ReportsErrorStateAndRecordsNothing()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 10, TimeRunning = 10 };
        using PerfEventCounterSession session = SeedSession(kernel);
        session.Read(true);
        kernel.ScriptRead(0);

        session.Read(true).ShouldBe(PerfEventReadStatus.GroupInErrorState);

        session.LastError.ShouldNotBeNull();
        session.LastError.ShouldContain("0 bytes");
        session.LastError.ShouldContain("cycles");
        session.Record().ShouldBeFalse();
        session.Counters.ShouldAllBe(c => c.Histogram.TotalCount == 0);
        Should.Throw<InvalidOperationException>(() => ReadCumulativeAfterEof(session, kernel)).Message.ShouldContain("error state");
    }

    private static void ReadCumulativeAfterEof(PerfEventCounterSession session, FakePerfKernel kernel)
    {
        kernel.ScriptRead(0);
        session.ReadCumulative(new ulong[session.Descriptors.Count]);
    }

    [Fact]
    public void Read_KernelSaysEnospc_FailsNamingTheErrno()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = SeedSession(kernel);
        kernel.ScriptRead(-28);

        session.Read(true).ShouldBe(PerfEventReadStatus.Failed);

        session.LastError!.ShouldContain("ENOSPC");
    }

    [Fact]
    public void Read_InterruptedOnce_RetriesAndSucceeds()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = SeedSession(kernel);
        kernel.ScriptRead(-4);

        session.Read(true).ShouldBe(PerfEventReadStatus.Syscall);

        session.LastError.ShouldBeNull();
    }

    [Fact]
    public void Record_AfterAFailedRead_NeedsTwoGoodReadsAgain()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 1, TimeRunning = 1 };
        using PerfEventCounterSession session = SeedSession(kernel);
        session.Read(true);
        kernel.ScriptRead(-5);
        session.Read(true);
        session.Read(true);

        session.Record().ShouldBeFalse("the delta would span the failed read");
        session.Read(true);
        session.Record().ShouldBeTrue();
    }

    [Theory]
    [InlineData(2, "ENOENT", "PMU")]
    [InlineData(13, "EACCES", "perf_event_paranoid")]
    [InlineData(1, "EPERM", "seccomp")]
    [InlineData(24, "EMFILE", "ulimit")]
    public void Create_AnEventFailsToOpen_IsUnavailableWithTheReasonAndTheRestCounts(int errno, string name, string hint)
    {
        var kernel = new FakePerfKernel();
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.CpuCycles)] = errno;

        using PerfEventCounterSession session = SeedSession(kernel);

        session.Counters.Hardware.CpuCycles.ShouldBeNull();
        session.Counters.Count.ShouldBe(4);
        session.Counters[0].Name.ShouldBe("Hardware:Instructions", "the first event that opens leads the group");
        kernel.Opened.Skip(1).ShouldAllBe(e => e.GroupFd == kernel.Opened[0].Fd);
        CounterDescriptorShould(session, "cycles", name, hint);
    }

    private static void CounterDescriptorShould(PerfEventCounterSession session, string counter, string errno, string hint)
    {
        Picollo.Counters.CounterDescriptor descriptor = session.UnavailableCounters.ShouldHaveSingleItem();
        descriptor.Name.ShouldBe(counter);
        descriptor.IsAvailable.ShouldBeFalse();
        descriptor.UnavailableReason.ShouldStartWith(errno + " (");
        descriptor.UnavailableReason.ShouldContain("'" + counter + "'");
        descriptor.UnavailableReason.ShouldContain(hint);
    }

    [Fact]
    public void Create_UserModeOnly_ContextSwitchesAndMigrationsAreUnavailableNotZero()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithKernel(false)
                .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
                .WithSoftwareCounter(PerfSoftwareCounterId.ContextSwitches)
                .WithSoftwareCounter(PerfSoftwareCounterId.CpuMigrations),
            kernel);

        kernel.Opened.Count.ShouldBe(1, "they are not even opened");
        session.Counters.Software.ContextSwitches.ShouldBeNull();
        session.UnavailableCounters.Select(d => d.Name).ShouldBe(["context-switches", "cpu-migrations"]);
        session.UnavailableCounters.ShouldAllBe(d => d.UnavailableReason!.Contains("exclude_kernel"));
    }

    [Fact]
    public void Create_KernelModeAndDisabled_ClearsExcludeKernelAndDisablesOnlyTheLeader()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithKernel(true).WithEnabled(false)
                .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
                .WithSoftwareCounter(PerfSoftwareCounterId.ContextSwitches),
            kernel);

        kernel.Opened.Count.ShouldBe(2);
        kernel.Opened.ShouldAllBe(e => (e.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagExcludeKernel) == 0);
        (kernel.Opened[0].Attr.Flags & Picollo.Interop.PerfEventAttr.FlagDisabled).ShouldNotBe(0UL);
        (kernel.Opened[1].Attr.Flags & Picollo.Interop.PerfEventAttr.FlagDisabled).ShouldBe(0UL);

        kernel.Ioctls.ShouldBeEmpty("a session created disabled is not enabled behind the caller's back");

        session.Enable();

        kernel.Ioctls.ShouldBe([(kernel.Opened[0].Fd, 0x2400UL, 1UL)]);
    }

    [Fact]
    public void Create_SameEventTwice_OpensItOnce()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithFixedCounters().WithHardwareCounter(PerfHardwareCounterId.CpuCycles), kernel);

        kernel.Opened.Count.ShouldBe(3);
        session.Descriptors.Count.ShouldBe(3);
    }

    [Fact]
    public void Create_NothingOpens_TryCreateFailsWithEveryReasonAndReadSaysNoCounters()
    {
        var kernel = new FakePerfKernel();
        kernel.OpenErrors[(Hw, 0)] = 2;
        kernel.OpenErrors[(Sw, 1)] = 13;
        PerfEventCounterSessionBuilder builder = PerfEventCounterSession.Factory
            .WithHardwareCounter(PerfHardwareCounterId.CpuCycles)
            .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock);

        using PerfEventCounterSession session = PerfEventOpener.Open(builder, kernel);

        session.Read().ShouldBe(PerfEventReadStatus.NoCounters);
        session.LastError!.ShouldContain("ENOENT");
        session.LastError!.ShouldContain("EACCES");
        session.Record().ShouldBeFalse();
        var destination = new ulong[] { 9, 9 };
        session.ReadCumulative(destination);
        destination.ShouldBe([0UL, 0UL]);
        session.Descriptors.ShouldAllBe(d => !d.IsAvailable);
    }

    [Fact]
    public void ReadCumulative_WritesScaledValuesInDescriptorOrderAndZeroForUnavailable()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 200, TimeRunning = 100 };
        kernel.OpenErrors[(Hw, (ulong)PerfHardwareCounterId.Instructions)] = 2;
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithFixedCounters(), kernel);
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.CpuCycles).Value = 10;
        kernel.Event(Hw, (ulong)PerfHardwareCounterId.RefCpuCycles).Value = 30;
        var destination = new ulong[3];

        session.ReadCumulative(destination);

        destination.ShouldBe([20UL, 0UL, 60UL]);
        session.Descriptors[1].IsAvailable.ShouldBeFalse();
    }

    [Fact]
    public void Read_PagesForbidRdpmc_FallsBackToOneSyscall()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 5, TimeRunning = 5, PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent(index: 0) };
        using PerfEventCounterSession session = SeedSession(kernel);

        session.IsRdpmcPossible.ShouldBeTrue();
        kernel.MappedPages.Count.ShouldBe(5);
        session.Read().ShouldBe(PerfEventReadStatus.Syscall);
        kernel.ReadCalls.ShouldBe(1);
    }

    [Fact]
    public void Create_GroupWithASoftwareEvent_DoesNotMapPages()
    {
        var kernel = new FakePerfKernel { PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent() };
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithHardwareCounter(PerfHardwareCounterId.CpuCycles).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock), kernel);

        session.IsRdpmcPossible.ShouldBeFalse("a software event never has a counter index, so the group always needs read()");
        kernel.MappedPages.ShouldBeEmpty();
    }

    [Fact]
    public void Create_AnotherThreadTargeted_DoesNotMapPages()
    {
        var kernel = new FakePerfKernel { PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent() };
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithTarget(1234, -1).WithHardwareCounter(PerfHardwareCounterId.CpuCycles), kernel);

        session.IsRdpmcPossible.ShouldBeFalse("rdpmc only reads the calling thread's counters");
    }

    [Fact]
    public void Dispose_UnmapsEveryPageAndClosesEveryFd()
    {
        var kernel = new FakePerfKernel { PageFactory = _ => SyntheticPerfPage.LiveHardwareEvent(index: 0) };
        PerfEventCounterSession session = SeedSession(kernel);
        kernel.OpenFds.Count.ShouldBe(5);

        session.Dispose();
        session.Dispose();

        kernel.OpenFds.ShouldBeEmpty();
        kernel.MappedPages.ShouldBeEmpty();
        Should.Throw<ObjectDisposedException>(() => session.Read());
    }

    [Fact]
    public void WithTarget_EveryThreadOnEveryCpu_IsRejectedAtBuildTime()
    {
        Should.Throw<ArgumentOutOfRangeException>(() => PerfEventCounterSession.Factory.WithTarget(-1, -1));
        Should.Throw<ArgumentOutOfRangeException>(() => PerfEventCounterSession.Factory.WithTarget(-2, 0));
    }
}
