using System.Runtime.InteropServices;
using Picollo.PerfEvents;
using Picollo.Tests.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Interop;

/// <summary>The native rdpmc reader's arithmetic on perf_event_mmap_page images built in memory (no PMU needed).</summary>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfMmapReaderTests
{
    [Fact]
    public void Compute_RawPmcJustBelow2Pow48WithWidth48_SignExtendsToANegativeDelta()
    {
        // The kernel programs the counter with -period: a raw value near 2^48 is a small negative number
        // that offset compensates.
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Offset = 1_000_000;

        PerfMmapReader.Compute(page.Bytes, (1UL << 48) - 100, tsc: 0, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        value.Count.ShouldBe(999_900UL);
    }

    [Fact]
    public void Compute_BitsAboveTheWidth_AreIgnored()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Offset = 10;

        PerfMmapReader.Compute(page.Bytes, (0xFFFFUL << 48) | 5, tsc: 0, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        value.Count.ShouldBe(15UL);
    }

    [Fact]
    public void Compute_PositivePmc_IsAddedToTheOffset()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Offset = 1L << 40;

        PerfMmapReader.Compute(page.Bytes, 123_456, tsc: 0, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        value.Count.ShouldBe((1UL << 40) + 123_456);
    }

    [Fact]
    public void Compute_NegativeOffsetAndSignExtendedPmc_WrapModulo2Pow64()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Offset = -1;
        page.PmcWidth = 40;

        // 2^39 is the sign bit of a 40-bit counter: -2^39, plus -1.
        PerfMmapReader.Compute(page.Bytes, 1UL << 39, tsc: 0, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        unchecked
        {
            value.Count.ShouldBe((ulong)(-(1L << 39) - 1));
        }
    }

    [Fact]
    public void Compute_CapUserTime_ExtendsEnabledAndRunningByTheTscFormula()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Capabilities |= SyntheticPerfPage.CapUserTime;
        page.TimeEnabled = 5_000;
        page.TimeRunning = 3_000;
        page.TimeShift = 31;
        page.TimeMult = 1_431_655_765; // ~0.667 ns per tick (a 1.5 GHz TSC) in 2^-31 units
        page.TimeOffset = unchecked((ulong)-123_456_789L);
        ulong tsc = 0x0123_4567_89AB_CDEF; // tsc × mult overflows 64 bits: the split formula must not

        PerfMmapReader.Compute(page.Bytes, 0, tsc, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        ulong delta = unchecked((ulong)((UInt128)tsc * 1_431_655_765 >> 31) - 123_456_789UL);
        value.Enabled.ShouldBe(5_000 + delta);
        value.Running.ShouldBe(3_000 + delta);
    }

    [Fact]
    public void Compute_CapUserTimeShort_FoldsTheTscIntoTheMaskedWindowFirst()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Capabilities |= SyntheticPerfPage.CapUserTime | SyntheticPerfPage.CapUserTimeShort;
        page.TimeShift = 0;
        page.TimeMult = 1;
        page.TimeCycles = 0xFF00;
        page.TimeMask = 0xFFFF;

        // A 16-bit clock that wrapped: cyc = time_cycles + ((0x0010 - 0xFF00) & 0xFFFF) = 0xFF00 + 0x0110.
        PerfMmapReader.Compute(page.Bytes, 0, tsc: 0x0010, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        value.Enabled.ShouldBe(0xFF00UL + 0x0110);
    }

    [Fact]
    public void Compute_WithoutCapUserTime_ReportsThePageTimesAsTheyAre()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.TimeEnabled = 777;
        page.TimeRunning = 666;
        page.TimeMult = 12345;

        PerfMmapReader.Compute(page.Bytes, 0, tsc: ulong.MaxValue, out var value).ShouldBe(Picollo.Interop.PerfMmap.Ok);

        value.Enabled.ShouldBe(777UL);
        value.Running.ShouldBe(666UL);
    }

    [Fact]
    public void Compute_CapUserRdpmcClear_SaysUseRead()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent();
        page.Capabilities &= ~SyntheticPerfPage.CapUserRdpmc;

        PerfMmapReader.Compute(page.Bytes, 1, 1, out _).ShouldBe(Picollo.Interop.PerfMmap.UseRead);
    }

    [Fact]
    public void Compute_IndexZero_SaysUseRead()
    {
        SyntheticPerfPage page = SyntheticPerfPage.LiveHardwareEvent(index: 0);

        PerfMmapReader.Compute(page.Bytes, 1, 1, out _).ShouldBe(Picollo.Interop.PerfMmap.UseRead);
    }

    [Fact]
    public void ReadGroup_FirstPageForbidsRdpmc_SaysUseReadWithoutExecutingRdpmc()
    {
        // The second page would allow rdpmc: were the reader to run it on this VM (no PMU, cap_user_rdpmc
        // never granted) the process would die of SIGSEGV. Reaching the assertion proves the refusal
        // happens before any rdpmc.
        SyntheticPerfPage forbidden = SyntheticPerfPage.LiveHardwareEvent();
        forbidden.Capabilities = 1UL << 1;
        SyntheticPerfPage indexZero = SyntheticPerfPage.LiveHardwareEvent(index: 0);
        var values = new Picollo.Interop.PerfEventValue[2];

        PerfMmapReader.ReadGroup([forbidden.Address, indexZero.Address], values).ShouldBe(Picollo.Interop.PerfMmap.UseRead);
        PerfMmapReader.ReadGroup([indexZero.Address, forbidden.Address], values).ShouldBe(Picollo.Interop.PerfMmap.UseRead);
    }

    [Fact]
    public void ReadGroup_NullPage_IsInvalidNotACrash()
    {
        PerfMmapReader.ReadGroup([0], new Picollo.Interop.PerfEventValue[1]).ShouldBe(Picollo.Interop.PerfMmap.Invalid);
    }

    [Fact]
    public void ReadGroup_RealSoftwareEventPage_SaysUseRead()
    {
        // Platform fact: software events publish cap_user_rdpmc = 0 and index = 0.
        var attr = PerfEventSpec.Software("task-clock", PerfSoftwareCounterId.TaskClock, "ns").CountingAttr(0, Picollo.Interop.PerfEventAttr.FlagExcludeKernel | Picollo.Interop.PerfEventAttr.FlagExcludeHv);
        int fd = LibcPerfEventSyscalls.Instance.Open(attr, 0, -1, -1, Picollo.Interop.PerfEvent.PERF_FLAG_FD_CLOEXEC);
        fd.ShouldBeGreaterThanOrEqualTo(0, "task-clock opens unprivileged at perf_event_paranoid <= 2");
        using var handle = new SafePerfEventHandle(fd, LibcPerfEventSyscalls.Instance);

        handle.MapFirstPage((nuint)Environment.SystemPageSize).ShouldBe(0);
        ulong capabilities = (ulong)Marshal.ReadInt64(handle.Page, 40);
        uint index = (uint)Marshal.ReadInt32(handle.Page, 12);

        (capabilities & SyntheticPerfPage.CapUserRdpmc).ShouldBe(0UL);
        index.ShouldBe(0U);
        PerfMmapReader.ReadGroup([handle.Page], new Picollo.Interop.PerfEventValue[1]).ShouldBe(Picollo.Interop.PerfMmap.UseRead);
    }
}
