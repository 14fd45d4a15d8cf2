using Picollo.Baselines;
using Picollo.Baselines.Records;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class MachineFingerprintTests
{
    [Fact]
    public void Current_DescribesThisProcess()
    {
        MachineFingerprint m = MachineFingerprint.Current;

        m.CpuModel.ShouldNotBeNullOrWhiteSpace();
        m.LogicalCores.ShouldBe(Environment.ProcessorCount);
        m.RuntimeVersion.ShouldBe(Environment.Version.ToString());
        m.IsaExtensions.ShouldBe(m.IsaExtensions.Order(StringComparer.Ordinal).ToList());

        // The test project turns background GC off for exact allocation counts.
        m.IsConcurrentGC.ShouldBeFalse();
        if (OperatingSystem.IsLinux())
            m.KernelVersion.ShouldBe(File.ReadAllText("/proc/sys/kernel/osrelease").Trim());
    }

    [Fact]
    public void Id_IsStableReadableAndCoversEveryField()
    {
        Epyc.Id.ShouldBe(Machine(Epyc.CpuModel).Id);
        Epyc.Id.ShouldMatch(@"^amd-epyc-7763-64-core-processor\.x64\.net10\.0\.1\.[0-9a-f]{8}$");

        string[] others =
        [
            Machine(Epyc.CpuModel, kernel: "6.19.0").Id,
            Machine(Epyc.CpuModel, cores: 8).Id,
            Machine(Epyc.CpuModel, isa: ["avx2"]).Id,
            Machine(Epyc.CpuModel, concurrentGC: true).Id,
            Machine(Epyc.CpuModel, runtime: "10.0.2").Id,
            Machine(Epyc.CpuModel, tscMegahertz: 2_600).Id,
        ];
        others.Append(Epyc.Id).Distinct().Count().ShouldBe(7);
    }

    [Fact]
    public void UnknownTscRate_KeepsTheIdOfEntriesRecordedBeforeItWasPartOfTheFingerprint()
    {
        // The id of the Epyc of this file's golden baselines, written before the TSC rate was recorded.
        Machine(Epyc.CpuModel).Id.ShouldBe(Epyc.Id);
        Machine(Epyc.CpuModel, tscMegahertz: 2_100).Id.ShouldNotBe(Epyc.Id);
        Machine(Epyc.CpuModel, tscMegahertz: 2_100).ToString().ShouldContain("TSC 2,100 MHz");
    }

    [Fact]
    public void Current_RecordsTheTscRateRoundedTo10MHz()
    {
        if (!Picollo.Counters.Tsc.IsSupported)
            Assert.Skip("No TSC here: " + Picollo.Counters.Tsc.UnsupportedReason);

        int mhz = MachineFingerprint.Current.TscMegahertz.ShouldNotBeNull();
        (mhz % 10).ShouldBe(0);
        ((double)mhz).ShouldBe(Picollo.Counters.Tsc.Frequency.Hertz / 1e6, 5.0);
    }

    [Fact]
    public void ClockRate_KeysAMachineWithoutATscRate_AndIsAbsentWhereTheTscRateIs()
    {
        MachineFingerprint windows = Laptop("Windows", clockHertz: 10_000_000);

        windows.Id.ShouldNotBe(Laptop("Windows").Id);
        windows.Id.ShouldNotBe(Laptop("Windows", clockHertz: 1_000_000_000).Id);
        windows.Id.ShouldNotBe(Laptop("Linux", clockHertz: 10_000_000).Id);
        windows.ToString().ShouldContain("clock 10,000,000 Hz");

        // This machine has a TSC rate: its time is keyed by it, and its id is what it was before the clock existed.
        if (Picollo.Counters.Tsc.IsSupported)
            MachineFingerprint.Current.ClockHertz.ShouldBeNull();
        else
            MachineFingerprint.Current.ClockHertz.ShouldBe(System.Diagnostics.Stopwatch.Frequency);
    }

    [Fact]
    public void CpuModel_FromCpuInfo_IsTheModelName_OrTheArmIdentification()
    {
        const string X86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7763 64-Core Processor\nflags\t\t: fpu\n";
        const string Arm64 =
            "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\n"
            + "CPU revision\t: 1\n\nprocessor\t: 1\nCPU implementer\t: 0x41\nCPU variant\t: 0x1\nCPU part\t: 0xd05\nCPU revision\t: 0\n";

        CpuModelName.FromCpuInfo(X86).ShouldBe("AMD EPYC 7763 64-Core Processor");
        CpuModelName.FromCpuInfo(Arm64).ShouldBe("Arm implementer 0x41 part 0xd0c r3p1");
        CpuModelName.FromCpuInfo("processor\t: 0\n").ShouldBeNull();

        // The real file: Current reads the same model it names.
        if (File.Exists("/proc/cpuinfo"))
            MachineFingerprint.Current.CpuModel.ShouldBe(CpuModelName.FromCpuInfo(File.ReadAllText("/proc/cpuinfo")));
    }

    private static MachineFingerprint Laptop(string os, long? clockHertz = null) =>
        new("Intel(R) Core(TM) Ultra 7 155H", "X64", ["avx2"], false, 22, os, "10.0.26100", "10.0.1", false, false, null, clockHertz);

    [Fact]
    public void IsaOrderAndDuplicates_DoNotChangeTheId() =>
        Machine("X", isa: ["bmi2", "avx2", "avx2"]).Id.ShouldBe(Machine("X", isa: ["avx2", "bmi2"]).Id);
}
