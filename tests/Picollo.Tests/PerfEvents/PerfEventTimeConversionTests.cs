using System.Runtime.InteropServices;
using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfEventTimeConversionTests
{
    [Fact]
    public void PageWithCapUserTime_GivesItsMultiplierAndShift()
    {
        byte[] page = SyntheticPage(capabilities: 1UL << 3, timeMult: 1_626_000_000, timeShift: 32);

        Decode(page, out uint mult, out ushort shift).ShouldBeTrue();
        mult.ShouldBe(1_626_000_000u);
        shift.ShouldBe((ushort)32);

        // ns = ticks · mult >> shift, so Hz = 1e9 · 2^shift / mult: 2.641 GHz here.
        TscFrequency.FromPerfTimeConversion(mult, shift).Hertz.ShouldBe(1e9 * Math.Pow(2, 32) / 1_626_000_000, tolerance: 1);
    }

    [Fact]
    public void PageWithoutCapUserTime_IsIgnored()
    {
        // cap_user_rdpmc (bit 2) alone: the kernel's clock is not the TSC, its time fields mean nothing.
        Decode(SyntheticPage(capabilities: 1UL << 2, timeMult: 1_626_000_000, timeShift: 32), out _, out _).ShouldBeFalse();
        Decode(SyntheticPage(capabilities: 1UL << 3, timeMult: 0, timeShift: 32), out _, out _).ShouldBeFalse();
    }

    [Fact]
    public void ReadingTheRealKernelsPage_ReleasesEveryFdAndMapping()
    {
        // The probe opens an event and maps its page on every call: none may outlive the call.
        int before = PerfEventFds();
        for (int i = 0; i < 200; i++)
            _ = PerfEventTimeConversion.TryRead(out _, out _);

        PerfEventFds().ShouldBeLessThanOrEqualTo(before);
        File.ReadAllText("/proc/self/maps").ShouldNotContain("perf_event");
    }

    private static int PerfEventFds() =>
        new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos().Count(f => f.LinkTarget?.Contains("perf_event", StringComparison.Ordinal) == true);

    private static bool Decode(byte[] page, out uint mult, out ushort shift) =>
        PerfEventTimeConversion.TryDecode(page, out mult, out shift);

    private static byte[] SyntheticPage(ulong capabilities, uint timeMult, ushort timeShift)
    {
        // struct perf_event_mmap_page: lock @8, capabilities @40, time_shift @50, time_mult @52.
        byte[] page = new byte[4096];
        MemoryMarshal.Write(page.AsSpan(8), 2u);
        MemoryMarshal.Write(page.AsSpan(40), capabilities);
        MemoryMarshal.Write(page.AsSpan(50), timeShift);
        MemoryMarshal.Write(page.AsSpan(52), timeMult);
        return page;
    }
}
