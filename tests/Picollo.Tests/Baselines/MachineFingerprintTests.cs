using Picollo.Baselines;
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
    public void IsaOrderAndDuplicates_DoNotChangeTheId() =>
        Machine("X", isa: ["bmi2", "avx2", "avx2"]).Id.ShouldBe(Machine("X", isa: ["avx2", "bmi2"]).Id);
}
