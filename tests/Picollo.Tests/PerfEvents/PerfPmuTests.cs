using System.Text;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed class PerfPmuTests
{
    private const string Sysfs = "/sys/bus/event_source/devices";

    [Fact]
    public void FakeTree_DiscoversNameTypeFormatsAndEvents()
    {
        using FakeSysfs sysfs = FakeSysfs.Intel();
        Directory.CreateDirectory(Path.Combine(sysfs.Root, "no-type-file"));

        IReadOnlyList<PerfPmu> pmus = PerfPmu.Discover(sysfs.Sysfs);

        pmus.Select(static p => p.ToString()).ShouldBe(["cpu (type 4)", "power (type 15)", "software (type 1)"]);
        PerfPmu cpu = pmus[0];
        cpu.IsCpu.ShouldBeTrue();
        cpu.FormatNames.ShouldContain("umask");
        cpu.EventNames.ShouldContain("topdown-total-slots");
        cpu.EventNames.ShouldNotContain("topdown-total-slots.scale");
        PerfPmu.HasCpuPmuIn(pmus).ShouldBeTrue();
        PerfPmu.HybridCorePmus(pmus).ShouldBeEmpty();
    }

    [Fact]
    public void HybridTree_HasCpuPmuAndBothCorePmus()
    {
        using FakeSysfs sysfs = FakeSysfs.Hybrid();

        IReadOnlyList<PerfPmu> pmus = PerfPmu.Discover(sysfs.Sysfs);

        PerfPmu.HasCpuPmuIn(pmus).ShouldBeTrue();
        PerfPmu.HybridCorePmus(pmus).Select(static p => p.Name).ShouldBe(["cpu_atom", "cpu_core"]);
    }

    [Theory]
    [InlineData("cpu", true)]
    [InlineData("cpu_core", true)]
    [InlineData("cpu_atom", true)]
    [InlineData("armv8_pmuv3_0", true)]
    [InlineData("armv8_cortex_a53", true)]
    [InlineData("software", false)]
    [InlineData("msr", false)]
    [InlineData("tracepoint", false)]
    [InlineData("uncore_imc_0", false)]
    [InlineData("power", false)]
    public void PmuName_IsClassifiedAsCpuOrNot(string name, bool isCpu) =>
        PerfPmu.IsCpuPmuName(name).ShouldBe(isCpu);

    [Fact]
    public void IntelCpuId_ReadsLeafA()
    {
        // Skylake: PerfMon v4, 4 programmable counters per logical core (8 with HT off), 3 fixed.
        var cpuId = FakeCpuId("GenuineIntel", new() { [0xA] = (0x0730_0404, 0, 0, 0x603) });

        PerfPmu.TryGetNumberOfCounters(true, cpuId, out uint fixedCounters, out uint programmable).ShouldBeTrue();

        fixedCounters.ShouldBe(3u);
        programmable.ShouldBe(4u);
    }

    [Fact]
    public void IntelCpuIdVersion1_HasNoFixedCounters()
    {
        var cpuId = FakeCpuId("GenuineIntel", new() { [0xA] = (0x0728_0201, 0, 0, 0x3) });

        PerfPmu.TryGetNumberOfCounters(true, cpuId, out uint fixedCounters, out uint programmable).ShouldBeTrue();

        fixedCounters.ShouldBe(0u);
        programmable.ShouldBe(2u);
    }

    [Fact]
    public void AmdPerfMonV2_ReadsLeaf80000022()
    {
        var cpuId = FakeCpuId("AuthenticAMD", new()
        {
            [0x8000_0000] = (0x8000_0028, 0, 0, 0),
            [0x8000_0001] = (0, 0, 1u << 23, 0),
            [0x8000_0022] = (0x7, 0x0007_0106, 0, 0),
        });

        PerfPmu.TryGetNumberOfCounters(true, cpuId, out uint fixedCounters, out uint programmable).ShouldBeTrue();

        fixedCounters.ShouldBe(0u);
        programmable.ShouldBe(6u);
    }

    [Theory]
    [InlineData(1u << 23, 6u)]
    [InlineData(0u, 4u)]
    public void AmdWithoutPerfMonV2_UsesTheCoreCounterExtensionBit(uint ecx80000001, uint expected)
    {
        var cpuId = FakeCpuId("AuthenticAMD", new()
        {
            [0x8000_0000] = (0x8000_001F, 0, 0, 0),
            [0x8000_0001] = (0, 0, ecx80000001, 0),
        });

        PerfPmu.TryGetNumberOfCounters(true, cpuId, out uint fixedCounters, out uint programmable).ShouldBeTrue();

        (fixedCounters, programmable).ShouldBe((0u, expected));
    }

    [Fact]
    public void NoCpuPmu_IsFalseWithoutAskingCpuId()
    {
        PerfPmu.TryGetNumberOfCounters(false, _ => throw new InvalidOperationException("CPUID must not run"), out uint f, out uint p).ShouldBeFalse();

        (f, p).ShouldBe((0u, 0u));
    }

    [Fact]
    public void UnknownVendorOrNonX86_IsFalse()
    {
        PerfPmu.TryGetNumberOfCounters(true, FakeCpuId("VIA VIA VIA ", []), out _, out _).ShouldBeFalse();
        PerfPmu.TryGetNumberOfCounters(true, null, out uint f, out uint p).ShouldBeFalse();
        (f, p).ShouldBe((0u, 0u));
    }

    [Fact]
    public void RealSysfs_DiscoversWhatTheKernelLists()
    {
        string[] expected = Directory.Exists(Sysfs)
            ? [.. Directory.GetDirectories(Sysfs).Select(Path.GetFileName).OfType<string>().Order(StringComparer.Ordinal)]
            : [];

        PerfPmu.All.Select(static p => p.Name).ShouldBe(expected);
        if (OperatingSystem.IsLinux())
        {
            PerfPmu.TryFind("software", out PerfPmu? software).ShouldBeTrue();
            software!.Type.ShouldBe(1u);
        }
    }

    [Fact]
    public void RealMachine_CountersKnownOnlyWithACpuPmu()
    {
        bool cpuPmuInSysfs = Directory.Exists(Sysfs)
            && Directory.GetDirectories(Sysfs).Select(Path.GetFileName).Any(n => n is "cpu" or "cpu_core" or "cpu_atom" || n!.StartsWith("armv", StringComparison.Ordinal));

        PerfPmu.HasCpuPmu.ShouldBe(cpuPmuInSysfs);
        bool known = PerfPmu.TryGetNumberOfCounters(out uint fixedCounters, out uint programmable);

        if (!cpuPmuInSysfs)
        {
            // This VM: an AMD EPYC guest whose CPUID advertises counters the hypervisor does not virtualize.
            known.ShouldBeFalse();
            (fixedCounters, programmable).ShouldBe((0u, 0u));
        }
        else
        {
            Assert.SkipUnless(known, "This CPU has a PMU in sysfs but its CPUID leaves do not report the counter counts.");
            programmable.ShouldBeGreaterThan(0u);
        }
    }

    private static Func<uint, (uint Eax, uint Ebx, uint Ecx, uint Edx)> FakeCpuId(string vendor, Dictionary<uint, (uint, uint, uint, uint)> leaves)
    {
        byte[] v = Encoding.ASCII.GetBytes(vendor);
        uint ebx = BitConverter.ToUInt32(v, 0), edx = BitConverter.ToUInt32(v, 4), ecx = BitConverter.ToUInt32(v, 8);
        leaves[0] = (0x16, ebx, ecx, edx);
        return leaf => leaves.TryGetValue(leaf, out var r) ? r : (0, 0, 0, 0);
    }
}
