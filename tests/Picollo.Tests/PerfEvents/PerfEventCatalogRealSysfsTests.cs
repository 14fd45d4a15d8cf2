using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>The default catalog over this machine's real sysfs.</summary>
public sealed class PerfEventCatalogRealSysfsTests
{
    private const string Sysfs = "/sys/bus/event_source/devices";

    [Fact]
    public void GenericNames_ResolveWithoutSysfs()
    {
        PerfEventCatalog catalog = PerfEventCatalog.Default;

        catalog.Resolve("task-clock").ShouldBe([PerfEventSpec.Software("task-clock", PerfSoftwareCounterId.TaskClock, "ns")]);
        catalog.Resolve("L1-dcache-load-misses")[0].Config.ShouldBe((ulong)PerfCacheCounterId.L1DReadMiss);
        catalog.Resolve("cycles").ShouldAllBe(s => s.Kind == CounterKind.Hardware);
    }

    [Fact]
    public void EverySysfsEventOfThisMachine_ResolvesToItsPmuType()
    {
        Assert.SkipUnless(Directory.Exists(Sysfs), $"{Sysfs} does not exist here (not Linux, or sysfs not mounted): no PMU publishes events.");
        PerfEventCatalog catalog = PerfEventCatalog.Default;
        int resolved = 0;

        foreach (PerfPmu pmu in catalog.Pmus)
        {
            foreach (string eventName in pmu.EventNames)
            {
                string raw = File.ReadAllText(Path.Combine(Sysfs, pmu.Name, "events", eventName));
                if (raw.Contains('?', StringComparison.Ordinal))
                    continue; // needs a parameter the user supplies
                PerfEventSpec spec = catalog.ResolveSingle(pmu.Name + "/" + eventName + "/");
                spec.Type.ShouldBe(pmu.Type);
                spec.Pmu.ShouldBe(pmu.Name);
                resolved++;
            }
        }

        Assert.SkipWhen(resolved == 0, $"No PMU in {Sysfs} publishes a sysfs event without parameters: nothing to resolve.");
    }

    [Fact]
    public void MsrTsc_ResolvesByPmuNameAndBare()
    {
        Assert.SkipUnless(File.Exists(Path.Combine(Sysfs, "msr", "events", "tsc")), "This machine has no msr PMU publishing a tsc event.");

        // msr/events/tsc = "event=0x00" with msr/format/event = "config:0-63".
        PerfEventCatalog catalog = PerfEventCatalog.Default;
        catalog.ResolveSingle("msr/tsc/").ShouldBe(new PerfEventSpec("msr/tsc/", catalog.Pmus.Single(p => p.Name == "msr").Type, 0, 0, 0, CounterKind.Raw, Pmu: "msr"));
        catalog.ResolveSingle("tsc").Name.ShouldBe("msr/tsc/");
    }

    [Fact]
    public void CpuTerms_WithACpuPmu_PlaceTheEventField()
    {
        Assert.SkipUnless(Directory.Exists(Path.Combine(Sysfs, "cpu")), $"This machine has no CPU PMU named 'cpu' in {Sysfs}.");

        PerfEventCatalog.Default.ResolveSingle("cpu/event=0x3c/").Config.ShouldBe(0x3cUL);
    }

    [Fact]
    public void CpuTerms_WithoutACpuPmu_NameTheMissingPmuAndListTheOthers()
    {
        Assert.SkipWhen(Directory.Exists(Path.Combine(Sysfs, "cpu")), $"This machine has a CPU PMU named 'cpu' in {Sysfs}.");

        var error = Should.Throw<PerfEventNameException>(() => PerfEventCatalog.Default.Resolve("cpu/event=0x3c,umask=0x00/"));

        error.Message.ShouldContain("Unknown PMU 'cpu'");
        foreach (PerfPmu pmu in PerfPmu.All)
            error.Message.ShouldContain(pmu.Name);
    }
}
