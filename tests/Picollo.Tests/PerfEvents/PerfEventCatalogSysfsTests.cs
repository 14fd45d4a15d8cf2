using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>pmu/…/ terms, sysfs aliases and hybrid expansion against fake sysfs trees.</summary>
public sealed class PerfEventCatalogSysfsTests : IDisposable
{
    private readonly FakeSysfs _intel = FakeSysfs.Intel();

    public void Dispose() => _intel.Dispose();

    [Theory]
    [InlineData("cpu/event=0x3c,umask=0x00/", 0x3cUL, 0UL)]
    [InlineData("cpu/event=0xc0,umask=0x01/", 0x01c0UL, 0UL)]
    [InlineData("CPU/Event=0xD1,Umask=0x20/", 0x20d1UL, 0UL)]
    [InlineData("cpu/event=0xa3,umask=0x14,cmask=20/", 0x1400_14a3UL, 0UL)]
    [InlineData("cpu/event=0x3c,inv,edge,any,cmask=1/", 0x01a4_003cUL, 0UL)]
    [InlineData("cpu/event=0x3c,inv=0/", 0x3cUL, 0UL)]
    [InlineData("cpu/event=0xb7,umask=0x01,offcore_rsp=0x10003c0244/", 0x01b7UL, 0x10003c0244UL)]
    [InlineData("cpu/config=0x1234,config1=7/", 0x1234UL, 7UL)]
    [InlineData("cpu/event=0x3c,in_tx=1,in_tx_cp=1/", 0x3_0000_003cUL, 0UL)]
    public void PmuTerms_PlaceEachFieldPerItsFormatFile(string name, ulong config, ulong config1)
    {
        PerfEventSpec spec = _intel.Catalog().ResolveSingle(name);

        spec.Type.ShouldBe(4u);
        spec.Config.ShouldBe(config);
        spec.Config1.ShouldBe(config1);
        spec.Config2.ShouldBe(0UL);
        spec.Kind.ShouldBe(CounterKind.Raw);
        spec.Pmu.ShouldBe("cpu");
        spec.Unit.ShouldBe("events");
    }

    [Fact]
    public void SysfsEventInPmuTerms_ExpandsItsTerms()
    {
        PerfEventSpec spec = _intel.Catalog().ResolveSingle("cpu/cycles-ct/");

        spec.ShouldBe(new PerfEventSpec("cpu/cycles-ct/", 4, 0x3_0000_003c, 0, 0, CounterKind.Raw, Pmu: "cpu"));
    }

    [Fact]
    public void SysfsEventWithUserTerm_LaterTermOverridesTheAlias()
    {
        PerfEventCatalog catalog = _intel.Catalog();

        PerfEventSpec alias = catalog.ResolveSingle("cpu/mem-loads/");
        PerfEventSpec overridden = catalog.ResolveSingle("cpu/mem-loads,ldlat=30/");

        alias.Config.ShouldBe(0x01cdUL);
        alias.Config1.ShouldBe(3UL);
        overridden.Config.ShouldBe(0x01cdUL);
        overridden.Config1.ShouldBe(30UL);
        overridden.Name.ShouldBe("cpu/mem-loads,ldlat=30/");
    }

    [Fact]
    public void BareSysfsEventName_ResolvesThroughThePmuThatHasIt()
    {
        PerfEventSpec spec = _intel.Catalog().ResolveSingle("CYCLES-CT");

        spec.ShouldBe(new PerfEventSpec("cpu/cycles-ct/", 4, 0x3_0000_003c, 0, 0, CounterKind.Raw, Pmu: "cpu"));
    }

    [Fact]
    public void SysfsEventWithScaleAndUnit_CarriesThem()
    {
        PerfEventCatalog catalog = _intel.Catalog();

        PerfEventSpec energy = catalog.ResolveSingle("power/energy-pkg/");
        PerfEventSpec slots = catalog.ResolveSingle("topdown-total-slots");

        energy.ShouldBe(new PerfEventSpec("power/energy-pkg/", 15, 0x02, 0, 0, CounterKind.Raw, "Joules", 2.3283064365386962890625e-10, "power"));
        catalog.ResolveSingle("energy-pkg").ShouldBe(energy);
        slots.Scale.ShouldBe(2.0);
        slots.Unit.ShouldBe("events");
        slots.Config.ShouldBe(0x20_003cUL);
    }

    [Fact]
    public void CustomNameTerm_NamesTheSpec() =>
        _intel.Catalog().ResolveSingle("cpu/event=0x3c,name=my-cycles/").Name.ShouldBe("my-cycles");

    [Fact]
    public void GenericNameOnNonHybridCpu_StaysOneGenericEvent()
    {
        PerfEventCatalog catalog = _intel.Catalog();

        catalog.IsHybrid.ShouldBeFalse();
        catalog.Resolve("cycles").ShouldBe([PerfEventSpec.Hardware("cycles", PerfHardwareCounterId.CpuCycles)]);
        catalog.ResolveSingle("cpu/instructions/").Config.ShouldBe(0xc0UL); // the sysfs alias wins inside pmu/…/
        catalog.ResolveSingle("cpu/cycles/").ShouldBe(PerfEventSpec.Hardware("cpu/cycles/", PerfHardwareCounterId.CpuCycles) with { Pmu = "cpu" });
    }

    [Fact]
    public void HybridCpu_GenericHardwareNameYieldsOneSpecPerCorePmuWithTypeInHighBits()
    {
        using FakeSysfs hybrid = FakeSysfs.Hybrid();
        PerfEventCatalog catalog = hybrid.Catalog();

        IReadOnlyList<PerfEventSpec> specs = catalog.Resolve("cycles");
        IReadOnlyList<PerfEventSpec> misses = catalog.Resolve("LLC-load-misses");

        catalog.IsHybrid.ShouldBeTrue();
        specs.ShouldBe(
        [
            new PerfEventSpec("cpu_atom/cycles/", 0, (10UL << 32) | 0, 0, 0, CounterKind.Hardware, Pmu: "cpu_atom"),
            new PerfEventSpec("cpu_core/cycles/", 0, (4UL << 32) | 0, 0, 0, CounterKind.Hardware, Pmu: "cpu_core"),
        ]);
        misses.Select(static s => s.Config).ShouldBe([(10UL << 32) | 0x10002, (4UL << 32) | 0x10002]);
        misses.ShouldAllBe(s => s.Type == 3 && s.Kind == CounterKind.HardwareCache);
        catalog.Resolve("task-clock").Count.ShouldBe(1);
        catalog.Resolve("cpu_core/branch-misses/").ShouldBe([new PerfEventSpec("cpu_core/branch-misses/", 0, (4UL << 32) | 5, 0, 0, CounterKind.Hardware, Pmu: "cpu_core")]);
        catalog.Resolve("cpu-cycles").Count.ShouldBe(2); // the generic alias, not the sysfs event of the same name
        catalog.Resolve("topdown-retiring").ShouldBe([new PerfEventSpec("cpu_atom/topdown-retiring/", 10, 0x02c2, 0, 0, CounterKind.Raw, Pmu: "cpu_atom")]);
    }

    [Fact]
    public void HybridCpu_ResolveSingleOfGenericNameRefusesAndNamesTheParts()
    {
        using FakeSysfs hybrid = FakeSysfs.Hybrid();

        var error = Should.Throw<PerfEventNameException>(() => hybrid.Catalog().ResolveSingle("instructions"));

        error.Message.ShouldContain("cpu_atom/instructions/");
        error.Message.ShouldContain("cpu_core/instructions/");
        error.Message.ShouldContain("sum");
    }

    [Theory]
    [InlineData("cpu/event=0x3c,,umask=1/", 15, "empty term")]
    [InlineData("cpu/event=0x3c,umask=/", 15, "missing its value")]
    [InlineData("cpu/event=0xzz/", 4, "'0xzz' is not a number")]
    [InlineData("cpu/event=0x3c", 14, "closing '/' is missing")]
    [InlineData("cpu//", 4, "no term")]
    [InlineData("/event=1/", 0, "PMU name")]
    [InlineData("cpu/event=0x3c/u", 15, "after the closing '/'")]
    [InlineData("cpu/event=0x13c/", 4, "does not fit in its 8 bits")]
    [InlineData("cpu/event=0x3c,=4/", 15, "no name before '='")]
    [InlineData("cpu/cycles-ct=1/", 4, "takes no value")]
    public void MalformedTerm_NamesTheTermAndItsPosition(string name, int position, string problem)
    {
        var error = Should.Throw<PerfEventNameException>(() => _intel.Catalog().Resolve(name));

        error.Position.ShouldBe(position);
        error.Message.ShouldContain($"'{name}' at position {position}");
        error.Message.ShouldContain(problem);
    }

    [Fact]
    public void UnknownTerm_ListsTheFormatFieldsAndCloseMatches()
    {
        var error = Should.Throw<PerfEventNameException>(() => _intel.Catalog().Resolve("cpu/event=0x3c,umsk=1/"));

        error.Position.ShouldBe(15);
        error.Suggestions[0].ShouldBe("umask");
        error.Message.ShouldContain("Unknown term 'umsk' at position 15");
        error.Message.ShouldContain("cmask, edge, event");
        error.Message.ShouldContain(_intel.Root + "/cpu/events/");
    }

    [Fact]
    public void UnknownPmu_ListsThePmusOfTheMachine()
    {
        var error = Should.Throw<PerfEventNameException>(() => _intel.Catalog().Resolve("cpuu/event=0x3c/"));

        error.Suggestions[0].ShouldBe("cpu");
        error.Message.ShouldContain("Unknown PMU 'cpuu'");
        error.Message.ShouldContain("cpu, power, software");
    }

    [Fact]
    public void UnknownBareName_SuggestsSysfsEventsToo() =>
        Should.Throw<PerfEventNameException>(() => _intel.Catalog().Resolve("cycles-cx")).Suggestions[0].ShouldBe("cycles-ct");

    [Fact]
    public void AliasRequiringAParameter_SaysWhichOne()
    {
        using FakeSysfs sysfs = new FakeSysfs().WithPmu("hv", 20, new Dictionary<string, string> { ["event"] = "config:0-7", ["domain"] = "config:8-11" },
            new Dictionary<string, string> { ["cycles"] = "event=0x1,domain=?" });

        var error = Should.Throw<PerfEventNameException>(() => sysfs.Catalog().Resolve("hv/cycles/"));

        error.Position.ShouldBe(3);
        error.Message.ShouldContain("'domain' is a parameter the sysfs event 'cycles' requires");
        error.Message.ShouldContain("hv/cycles,domain=0/");
        sysfs.Catalog().ResolveSingle("hv/cycles,domain=2/").Config.ShouldBe(0x201UL);
    }

    [Fact]
    public void KnownNames_IncludeSysfsEventsAsPmuTerms()
    {
        IReadOnlyList<string> names = _intel.Catalog().GetKnownNames();

        names.ShouldContain("cycles");
        names.ShouldContain("cpu/cycles-ct/");
        names.ShouldContain("power/energy-pkg/");
        names.ShouldNotContain("power/energy-pkg.scale/");
    }
}
