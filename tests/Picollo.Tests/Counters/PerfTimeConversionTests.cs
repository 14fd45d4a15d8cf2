using Picollo.Counters;
using Picollo.Tests.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfTimeConversionTests
{
    [Fact]
    public void PageWithCapUserTime_GivesItsMultiplierAndShift()
    {
        byte[] page = SyntheticPage(capabilities: SyntheticPerfPage.CapUserTime, timeMult: 1_626_000_000, timeShift: 32);

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
        Decode(SyntheticPage(capabilities: SyntheticPerfPage.CapUserRdpmc, timeMult: 1_626_000_000, timeShift: 32), out _, out _).ShouldBeFalse();
        Decode(SyntheticPage(capabilities: SyntheticPerfPage.CapUserTime, timeMult: 0, timeShift: 32), out _, out _).ShouldBeFalse();
    }

    [Fact]
    public void ReadingTheRealKernelsPage_ReleasesEveryFdAndMapping()
    {
        // The probe opens an event and maps its page on every call: none may outlive the call.
        int before = PerfEventFds();
        for (int i = 0; i < 200; i++)
            _ = PerfTimeConversion.TryRead(out _, out _);

        PerfEventFds().ShouldBeLessThanOrEqualTo(before);
        File.ReadAllText("/proc/self/maps").ShouldNotContain("perf_event");
    }

    private static int PerfEventFds() =>
        new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos().Count(f => f.LinkTarget?.Contains("perf_event", StringComparison.Ordinal) == true);

    private static bool Decode(byte[] page, out uint mult, out ushort shift) =>
        PerfTimeConversion.TryDecode(page, out mult, out shift);

    // A page written as the kernel publishes it, between two updates (even seqlock).
    private static byte[] SyntheticPage(ulong capabilities, uint timeMult, ushort timeShift) =>
        new SyntheticPerfPage { Lock = 2, Capabilities = capabilities, TimeMult = timeMult, TimeShift = timeShift }.Bytes;
}
