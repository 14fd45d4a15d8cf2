using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>
/// Counters summing several events on a scripted kernel: a hybrid CPU (fake <c>cpu_core</c> type 4 and
/// <c>cpu_atom</c> type 10), PMUs publishing the same sysfs event, and sysfs <c>.scale</c>/<c>.unit</c>.
/// </summary>
public sealed class PerfEventCounterSessionHybridTests : IDisposable
{
    private const uint Hw = (uint)PerfEventType.Hardware;
    private const ulong Core = 4UL << 32; // PERF_PMU_TYPE_SHIFT: the core PMU's type in config's high bits
    private const ulong Atom = 10UL << 32;

    private readonly FakeSysfs _hybrid = FakeSysfs.Hybrid();

    public void Dispose() => _hybrid.Dispose();

    private PerfEventCounterSession Open(FakePerfKernel kernel, Func<PerfEventCounterSessionBuilder, PerfEventCounterSessionBuilder> counters) =>
        PerfEventOpener.Open(counters(PerfEventCounterSession.Factory.WithCatalog(_hybrid.Catalog())), kernel);

    private static void SetGroup(FakePerfKernel kernel, ulong config, ulong value, ulong enabled, ulong running)
    {
        FakePerfKernel.FakeEvent e = kernel.Event(Hw, config);
        e.Value = value;
        e.TimeEnabled = enabled;
        e.TimeRunning = running;
    }

    [Fact]
    public void WithCounterCycles_HybridCpu_OneCounterBackedByOneEventPerCorePmuEachLeadingItsOwnGroup()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b.WithPinned().WithCounter("cycles"));

        PerfEventCounter cycles = session.Counters.ShouldHaveSingleItem();
        cycles.Events.Select(e => e.Name).ShouldBe(["cpu_atom/cycles/", "cpu_core/cycles/"]);
        cycles.Name.ShouldBe("Hardware:CpuCycles");
        session.Counters.Hardware.CpuCycles.ShouldBeSameAs(cycles, "the counter stands for the generic event");
        session.Descriptors.ShouldHaveSingleItem().ShouldBe(new CounterDescriptor("cycles", "events", CounterKind.Hardware));
        kernel.Opened.Select(e => e.Attr.Config).ShouldBe([Atom, Core]);
        kernel.Opened.ShouldAllBe(e => e.GroupFd == -1 && (e.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagPinned) != 0 && (e.Attr.Flags & Picollo.Interop.PerfEventAttr.FlagDisabled) != 0,
            "the kernel refuses a group mixing two core PMUs: each leads its own");
        kernel.Ioctls.ShouldBe([(kernel.Opened[0].Fd, 0x2400UL, 1UL), (kernel.Opened[1].Fd, 0x2400UL, 1UL)]);
    }

    [Fact]
    public void WithHardwareAndFixedCounters_HybridCpu_ExpandLikeTheNamesAndShareOneGroupPerCorePmu()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b
            .WithFixedCounters()
            .WithCacheCounter(PerfCacheCounterId.L1DReadMiss)
            .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
            .WithCounter("instructions"));

        session.Descriptors.Select(d => d.Name).ShouldBe(["cycles", "instructions", "ref-cycles", "L1-dcache-load-misses", "task-clock"], "'instructions' twice is one counter");
        session.Counters.Take(4).ShouldAllBe(c => c.Events.Count == 2);
        session.Counters.Cache.L1DReadMiss.ShouldNotBeNull();
        kernel.Opened.Count.ShouldBe(9);
        FakePerfKernel.FakeEvent atomLeader = kernel.Opened[0], coreLeader = kernel.Opened[1];
        kernel.Opened.Where(e => e.Attr.Config >> 32 == 10).ShouldAllBe(e => e == atomLeader || e.GroupFd == atomLeader.Fd);
        kernel.Opened.Where(e => e.Attr.Config >> 32 == 4).ShouldAllBe(e => e == coreLeader || e.GroupFd == coreLeader.Fd);
        kernel.Event((uint)PerfEventType.Software, (ulong)PerfSoftwareCounterId.TaskClock).GroupFd.ShouldBe(atomLeader.Fd, "software events join a hardware group");
    }

    [Fact]
    public void WithHardwareCounter_NonHybridCpu_OpensTheGenericEventAsBefore()
    {
        using FakeSysfs intel = FakeSysfs.Intel();
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithCatalog(intel.Catalog()).WithHardwareCounter(PerfHardwareCounterId.CpuCycles).WithCounter("instructions"), kernel);

        kernel.Opened.Select(e => (e.Attr.Type, e.Attr.Config)).ShouldBe([(Hw, 0UL), (Hw, 1UL)]);
        kernel.Opened[1].GroupFd.ShouldBe(kernel.Opened[0].Fd);
        session.Counters.ShouldAllBe(c => c.Events.Count == 1);
    }

    [Fact]
    public void ReadRecord_HybridCycles_SumsBothCorePmusWithOneReadPerCorePmu()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b.WithCounter("cycles").WithCounter("instructions"));
        SetGroup(kernel, Core, 1_000, enabled: 100, running: 60);
        SetGroup(kernel, Atom, 500, enabled: 100, running: 40);
        kernel.Event(Hw, Core | 1).Value = 3_000;
        kernel.Event(Hw, Atom | 1).Value = 700;
        session.Read(true);
        SetGroup(kernel, Core, 7_000, enabled: 200, running: 110);
        SetGroup(kernel, Atom, 2_500, enabled: 200, running: 90);
        kernel.Event(Hw, Core | 1).Value = 9_000;
        kernel.Event(Hw, Atom | 1).Value = 900;
        int readsBefore = kernel.ReadCalls;

        session.Read(true).ShouldBe(PerfEventReadStatus.Syscall);
        session.Record().ShouldBeTrue();

        kernel.ReadCalls.ShouldBe(readsBefore + 2, "one read() per core PMU group");
        PerfEventCounter cycles = session.Counters.Hardware.CpuCycles!;
        cycles.LastValue.ShouldBe(8_000UL, "6000 on P-cores + 2000 on E-cores: the thread ran 50/50 and the halves are not extrapolated");
        cycles.MultiplexingRatio.ShouldBe(1.0);
        session.Counters.Hardware.Instructions!.LastValue.ShouldBe(6_200UL);
        var cumulative = new ulong[2];
        session.ReadCumulative(cumulative);
        cumulative.ShouldBe([9_500UL, 9_900UL]);
    }

    [Fact]
    public void Record_HybridCoreTypeMultiplexed_ExtrapolatesTheSumByTheTotalRunningTime()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b.WithCounter("cycles"));
        SetGroup(kernel, Core, 0, enabled: 0, running: 0);
        SetGroup(kernel, Atom, 0, enabled: 0, running: 0);
        session.Read(true);
        // 1000 ns on the thread: 600 on P-cores of which 300 multiplexed away, 400 on E-cores of which 200.
        SetGroup(kernel, Core, 3_000, enabled: 1_000, running: 300);
        SetGroup(kernel, Atom, 1_000, enabled: 1_000, running: 200);

        session.Read(true);
        session.Record().ShouldBeTrue();

        PerfEventCounter cycles = session.Counters.Hardware.CpuCycles!;
        cycles.LastValue.ShouldBe(8_000UL, "(3000 + 1000) × 1000 / (300 + 200)");
        cycles.MultiplexingRatio.ShouldBe(0.5);
    }

    [Fact]
    public void Record_HybridOneCoreTypeDidNotRun_CountsTheOtherAlone()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b.WithCounter("cycles"));
        session.Read(true);
        SetGroup(kernel, Core, 5_000, enabled: 1_000, running: 1_000);
        SetGroup(kernel, Atom, 0, enabled: 1_000, running: 0); // perf stat: "<not counted> cpu_atom/cycles/ (0.00%)"

        session.Read(true);
        session.Record().ShouldBeTrue();

        session.Counters.Hardware.CpuCycles!.LastValue.ShouldBe(5_000UL);
        session.Counters.Hardware.CpuCycles.NotCountedSamples.ShouldBe(0);
    }

    [Fact]
    public void Record_HybridNoCoreTypeRan_IsNotCountedRatherThanZero()
    {
        var kernel = new FakePerfKernel();
        using PerfEventCounterSession session = Open(kernel, b => b.WithCounter("cycles"));
        SetGroup(kernel, Core, 0, enabled: 1_000, running: 0);
        SetGroup(kernel, Atom, 0, enabled: 1_000, running: 0);
        session.Read(true);
        kernel.Event(Hw, Core).TimeEnabled = 2_000;
        kernel.Event(Hw, Atom).TimeEnabled = 2_000;

        session.Read(true);
        session.Record().ShouldBeTrue();

        PerfEventCounter cycles = session.Counters.Hardware.CpuCycles!;
        cycles.Histogram.TotalCount.ShouldBe(0UL);
        cycles.NotCountedSamples.ShouldBe(1);
    }

    [Fact]
    public void Create_HybridOneCorePmuMissing_CountsWithTheOtherAndSaysWhichCoreTypeIsMissing()
    {
        var kernel = new FakePerfKernel();
        kernel.OpenErrors[(Hw, Atom)] = 2; // ENOENT
        using PerfEventCounterSession session = Open(kernel, b => b.WithHardwareCounter(PerfHardwareCounterId.CpuCycles));
        SetGroup(kernel, Core, 4_000, enabled: 1_000, running: 1_000);

        session.Read(true);
        session.Record(deltas: false).ShouldBeTrue();

        PerfEventCounter cycles = session.Counters.Hardware.CpuCycles!;
        cycles.Events.ShouldHaveSingleItem().Name.ShouldBe("cpu_core/cycles/");
        cycles.LastValue.ShouldBe(4_000UL);
        session.UnavailableCounters.ShouldBeEmpty();
        CounterDescriptor descriptor = session.Descriptors.ShouldHaveSingleItem();
        descriptor.IsAvailable.ShouldBeTrue();
        descriptor.PartialReason.ShouldNotBeNull();
        descriptor.PartialReason.ShouldContain("cpu_atom/cycles/");
        descriptor.PartialReason.ShouldContain("cpu_atom cores");
        descriptor.PartialReason.ShouldContain("ENOENT");
        cycles.Descriptor.ShouldBe(descriptor);
    }

    [Fact]
    public void Create_HybridEveryCorePmuMissing_CounterIsUnavailableWithEveryReason()
    {
        var kernel = new FakePerfKernel();
        kernel.OpenErrors[(Hw, Atom)] = 2;
        kernel.OpenErrors[(Hw, Core)] = 13;
        using PerfEventCounterSession session = Open(kernel, b => b.WithCounter("cycles").WithSoftwareCounter(PerfSoftwareCounterId.TaskClock));

        session.Counters.Hardware.CpuCycles.ShouldBeNull();
        CounterDescriptor cycles = session.UnavailableCounters.ShouldHaveSingleItem();
        cycles.Name.ShouldBe("cycles");
        cycles.UnavailableReason!.ShouldContain("ENOENT");
        cycles.UnavailableReason!.ShouldContain("EACCES");
        cycles.PartialReason.ShouldBeNull();
        session.Counters.Software.TaskClock.ShouldNotBeNull();
    }

    [Fact]
    public void Read_HybridOneGroupInErrorState_FailsTheWholeReadNamingThatGroup()
    {
        var kernel = new FakePerfKernel { TimeEnabled = 1, TimeRunning = 1 };
        using PerfEventCounterSession session = Open(kernel, b => b.WithPinned().WithCounter("cycles"));
        session.Read(true);
        kernel.ScriptRead(1, 0); // the first group reads normally, the second is in error state

        session.Read(true).ShouldBe(PerfEventReadStatus.GroupInErrorState);

        session.LastError!.ShouldContain("[cpu_core/cycles/]");
        session.Record().ShouldBeFalse();
    }

    [Fact]
    public void WithCounter_SysfsEventOfSeveralPmus_OneCounterSummingEachEventsExtrapolationWithScaleAndUnit()
    {
        IReadOnlyDictionary<string, string> imcEvents = new Dictionary<string, string>
        {
            ["cas_count_read"] = "event=0x04,umask=0x03",
            ["cas_count_read.scale"] = "6.103515625e-5",
            ["cas_count_read.unit"] = "MiB",
        };
        using FakeSysfs uncore = new FakeSysfs()
            .WithPmu("uncore_imc_0", 20, FakeSysfs.IntelFormats, imcEvents)
            .WithPmu("uncore_imc_1", 21, FakeSysfs.IntelFormats, imcEvents);
        var kernel = new FakePerfKernel { TimeEnabled = 1_000, TimeRunning = 500 };
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithCatalog(uncore.Catalog()).WithCounter("cas_count_read"), kernel);
        kernel.Opened[0].Value = 100;
        kernel.Opened[1].Value = 300;

        session.Read(true);
        session.Record(deltas: false).ShouldBeTrue();

        PerfEventCounter counter = session.Counters.ShouldHaveSingleItem();
        counter.Events.Count.ShouldBe(2);
        counter.LastValue.ShouldBe(800UL, "the boxes count at the same time: each is extrapolated (×2) and summed");
        counter.Descriptor.ShouldBe(new CounterDescriptor("cas_count_read", "MiB", CounterKind.Raw, Scale: 6.103515625e-5));
        counter.LastScaledValue.ShouldBe(800 * 6.103515625e-5);
    }

    [Fact]
    public void WithCounter_SysfsScaleAndUnit_AreCarriedWhileTheHistogramRecordsRawCounts()
    {
        using FakeSysfs intel = FakeSysfs.Intel();
        var kernel = new FakePerfKernel { TimeEnabled = 10, TimeRunning = 10 };
        using PerfEventCounterSession session = PerfEventOpener.Open(
            PerfEventCounterSession.Factory.WithCatalog(intel.Catalog()).WithCounter("power/energy-pkg/"), kernel);
        kernel.Opened.ShouldHaveSingleItem().Value = 4_294_967_296; // 2^32 units of 2^-32 J

        session.Read(true);
        session.Record(deltas: false).ShouldBeTrue();

        PerfEventCounter energy = session.Counters.ShouldHaveSingleItem();
        energy.Descriptor.Unit.ShouldBe("Joules");
        energy.Descriptor.Scale.ShouldBe(2.3283064365386962890625e-10);
        energy.LastValue.ShouldBe(4_294_967_296UL);
        energy.Histogram.TotalCount.ShouldBe(1UL);
        energy.LastScaledValue.ShouldBe(1.0);
    }

    [Fact]
    public void WithCounter_PmusDisagreeOnScale_RefusesToSumAndNamesThem()
    {
        using FakeSysfs odd = new FakeSysfs()
            .WithPmu("uncore_a", 20, FakeSysfs.IntelFormats, new Dictionary<string, string> { ["reads"] = "event=0x01", ["reads.scale"] = "64" })
            .WithPmu("uncore_b", 21, FakeSysfs.IntelFormats, new Dictionary<string, string> { ["reads"] = "event=0x01" });

        var error = Should.Throw<PerfEventNameException>(() => PerfEventCounterSession.Factory.WithCatalog(odd.Catalog()).WithCounter("reads"));

        error.Message.ShouldContain("uncore_a/reads/");
        error.Message.ShouldContain("uncore_b/reads/");
    }
}
