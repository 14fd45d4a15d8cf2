using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>Generic names, aliases, cache combinations, raw codes and unknown names, on a machine with only the software PMU.</summary>
public sealed class PerfEventCatalogTests : IDisposable
{
    private readonly FakeSysfs _sysfs = new FakeSysfs().WithPmu("software", 1);

    public void Dispose() => _sysfs.Dispose();

    [Theory]
    [InlineData("cycles", "cycles", PerfHardwareCounterId.CpuCycles)]
    [InlineData("cpu-cycles", "cycles", PerfHardwareCounterId.CpuCycles)]
    [InlineData("instructions", "instructions", PerfHardwareCounterId.Instructions)]
    [InlineData("ref-cycles", "ref-cycles", PerfHardwareCounterId.RefCpuCycles)]
    [InlineData("branches", "branches", PerfHardwareCounterId.BranchInstructions)]
    [InlineData("branch-instructions", "branches", PerfHardwareCounterId.BranchInstructions)]
    [InlineData("branch-misses", "branch-misses", PerfHardwareCounterId.BranchMisses)]
    [InlineData("cache-references", "cache-references", PerfHardwareCounterId.CacheReferences)]
    [InlineData("cache-misses", "cache-misses", PerfHardwareCounterId.CacheMisses)]
    [InlineData("stalled-cycles-frontend", "stalled-cycles-frontend", PerfHardwareCounterId.StalledCyclesFrontend)]
    [InlineData("idle-cycles-frontend", "stalled-cycles-frontend", PerfHardwareCounterId.StalledCyclesFrontend)]
    [InlineData("stalled-cycles-backend", "stalled-cycles-backend", PerfHardwareCounterId.StalledCyclesBackend)]
    [InlineData("idle-cycles-backend", "stalled-cycles-backend", PerfHardwareCounterId.StalledCyclesBackend)]
    [InlineData("bus-cycles", "bus-cycles", PerfHardwareCounterId.BusCycles)]
    public void HardwareName_ResolvesToGenericHardwareEvent(string name, string canonical, PerfHardwareCounterId id)
    {
        foreach (string spelling in new[] { name, name.ToUpperInvariant(), " " + name + " " })
        {
            PerfEventSpec spec = _sysfs.Catalog().ResolveSingle(spelling);

            spec.ShouldBe(new PerfEventSpec(canonical, 0, (ulong)id, 0, 0, CounterKind.Hardware));
        }
    }

    [Theory]
    [InlineData("cpu-clock", "cpu-clock", PerfSoftwareCounterId.CpuClock, "ns")]
    [InlineData("task-clock", "task-clock", PerfSoftwareCounterId.TaskClock, "ns")]
    [InlineData("page-faults", "page-faults", PerfSoftwareCounterId.PageFaults, "events")]
    [InlineData("faults", "page-faults", PerfSoftwareCounterId.PageFaults, "events")]
    [InlineData("minor-faults", "minor-faults", PerfSoftwareCounterId.PageFaultsMin, "events")]
    [InlineData("major-faults", "major-faults", PerfSoftwareCounterId.PageFaultsMaj, "events")]
    [InlineData("context-switches", "context-switches", PerfSoftwareCounterId.ContextSwitches, "events")]
    [InlineData("cs", "context-switches", PerfSoftwareCounterId.ContextSwitches, "events")]
    [InlineData("cpu-migrations", "cpu-migrations", PerfSoftwareCounterId.CpuMigrations, "events")]
    [InlineData("migrations", "cpu-migrations", PerfSoftwareCounterId.CpuMigrations, "events")]
    [InlineData("alignment-faults", "alignment-faults", PerfSoftwareCounterId.AlignmentFaults, "events")]
    [InlineData("emulation-faults", "emulation-faults", PerfSoftwareCounterId.EmulationFaults, "events")]
    [InlineData("dummy", "dummy", PerfSoftwareCounterId.Dummy, "events")]
    public void SoftwareName_ResolvesToSoftwareEventWithUnit(string name, string canonical, PerfSoftwareCounterId id, string unit)
    {
        foreach (string spelling in new[] { name, name.ToUpperInvariant() })
        {
            PerfEventSpec spec = _sysfs.Catalog().ResolveSingle(spelling);

            spec.ShouldBe(new PerfEventSpec(canonical, 1, (ulong)id, 0, 0, CounterKind.Software, unit));
        }
    }

    [Fact]
    public void EveryCacheCounterId_RoundTripsThroughItsPerfName()
    {
        PerfCacheCounterId[] ids = Enum.GetValues<PerfCacheCounterId>();
        ids.Length.ShouldBe(42);
        PerfEventCatalog catalog = _sysfs.Catalog();

        foreach (PerfCacheCounterId id in ids)
        {
            string name = PerfEventCatalog.GetName(id);
            PerfEventSpec spec = catalog.ResolveSingle(name);

            spec.ShouldBe(new PerfEventSpec(name, 3, (ulong)id, 0, 0, CounterKind.HardwareCache));
            catalog.ResolveSingle(name.ToLowerInvariant()).ShouldBe(spec);
        }

        ids.Select(PerfEventCatalog.GetName).Distinct().Count().ShouldBe(42);
    }

    [Theory]
    [InlineData("L1-dcache-loads", PerfCacheCounterId.L1DReadAccess)]
    [InlineData("L1-dcache-load-misses", PerfCacheCounterId.L1DReadMiss)]
    [InlineData("L1-dcache-stores", PerfCacheCounterId.L1DWriteAccess)]
    [InlineData("L1-dcache-prefetch-misses", PerfCacheCounterId.L1DPrefetchMiss)]
    [InlineData("L1-icache-load-misses", PerfCacheCounterId.L1IReadMiss)]
    [InlineData("LLC-loads", PerfCacheCounterId.LLReadAccess)]
    [InlineData("LLC-load-misses", PerfCacheCounterId.LLReadMiss)]
    [InlineData("LLC-store-misses", PerfCacheCounterId.LLWriteMiss)]
    [InlineData("dTLB-load-misses", PerfCacheCounterId.DTLBReadMiss)]
    [InlineData("dTLB-prefetches", PerfCacheCounterId.DTLBPrefetchAccess)]
    [InlineData("iTLB-loads", PerfCacheCounterId.ITLBReadAccess)]
    [InlineData("branch-loads", PerfCacheCounterId.BranchReadAccess)]
    [InlineData("branch-load-misses", PerfCacheCounterId.BranchReadMiss)]
    [InlineData("node-stores", PerfCacheCounterId.NodeWriteAccess)]
    [InlineData("node-prefetch-misses", PerfCacheCounterId.NodePrefetchMiss)]
    [InlineData("l1d-read-miss", PerfCacheCounterId.L1DReadMiss)]
    [InlineData("L2-misses", PerfCacheCounterId.LLReadMiss)]
    [InlineData("Data-TLB-write-access", PerfCacheCounterId.DTLBWriteAccess)]
    [InlineData("bpu-speculative-load", PerfCacheCounterId.BranchPrefetchAccess)]
    public void CacheNameOrPerfAlias_ResolvesToCacheId(string name, PerfCacheCounterId id)
    {
        PerfEventSpec spec = _sysfs.Catalog().ResolveSingle(name);

        spec.Type.ShouldBe((uint)PerfEventType.HardwareCache);
        spec.Config.ShouldBe((ulong)id);
        spec.Name.ShouldBe(PerfEventCatalog.GetName(id));
    }

    [Fact]
    public void GeneratedCacheNames_AreThePerfListSpellings()
    {
        PerfEventCatalog.GetName(PerfCacheCounterId.L1DReadMiss).ShouldBe("L1-dcache-load-misses");
        PerfEventCatalog.GetName(PerfCacheCounterId.L1IPrefetchAccess).ShouldBe("L1-icache-prefetches");
        PerfEventCatalog.GetName(PerfCacheCounterId.LLWriteAccess).ShouldBe("LLC-stores");
        PerfEventCatalog.GetName(PerfCacheCounterId.ITLBReadMiss).ShouldBe("iTLB-load-misses");
        PerfEventCatalog.GetName(PerfHardwareCounterId.BranchInstructions).ShouldBe("branches");
        PerfEventCatalog.GetName(PerfSoftwareCounterId.PageFaultsMaj).ShouldBe("major-faults");
    }

    [Fact]
    public void EveryHardwareAndSoftwareId_HasANameThatResolvesBackToIt()
    {
        PerfEventCatalog catalog = _sysfs.Catalog();
        foreach (PerfHardwareCounterId id in Enum.GetValues<PerfHardwareCounterId>())
            catalog.ResolveSingle(PerfEventCatalog.GetName(id)).Config.ShouldBe((ulong)id);
        foreach (PerfSoftwareCounterId id in Enum.GetValues<PerfSoftwareCounterId>())
            catalog.ResolveSingle(PerfEventCatalog.GetName(id)).Config.ShouldBe((ulong)id);
    }

    [Theory]
    [InlineData("r1a2b", 0x1a2bUL)]
    [InlineData("R01C2", 0x01c2UL)]
    [InlineData("r0", 0UL)]
    [InlineData("rffffffffffffffff", ulong.MaxValue)]
    public void RawCode_ResolvesToRawTypeWithHexConfig(string name, ulong config)
    {
        PerfEventSpec spec = _sysfs.Catalog().ResolveSingle(name);

        spec.ShouldBe(new PerfEventSpec(name.ToLowerInvariant(), (uint)PerfEventType.Raw, config, 0, 0, CounterKind.Raw));
    }

    [Theory]
    [InlineData("r")]
    [InlineData("r12g")]
    [InlineData("r1ffffffffffffffff")]
    public void NotQuiteRawCode_IsUnknown(string name) =>
        Should.Throw<PerfEventNameException>(() => _sysfs.Catalog().Resolve(name)).EventName.ShouldBe(name);

    [Fact]
    public void MisspelledName_SuggestsTheClosestNames()
    {
        var error = Should.Throw<PerfEventNameException>(() => _sysfs.Catalog().Resolve("brnach-misses"));

        error.ShouldBeAssignableTo<ArgumentException>();
        error.Suggestions[0].ShouldBe("branch-misses");
        error.Suggestions.Count.ShouldBeInRange(3, 5);
        error.Message.ShouldContain("Unknown perf event 'brnach-misses'");
        error.Message.ShouldContain("branch-misses");
        error.Message.ShouldContain("perf list");
        error.Message.ShouldContain(_sysfs.Root + "/<pmu>/events/");
        error.Position.ShouldBeNull();
    }

    [Theory]
    [InlineData("instrutions", "instructions")]
    [InlineData("task-clok", "task-clock")]
    [InlineData("LLC-load-mises", "LLC-load-misses")]
    [InlineData("cpu-migration", "cpu-migrations")]
    public void Typo_PutsTheIntendedNameFirst(string typo, string intended) =>
        Should.Throw<PerfEventNameException>(() => _sysfs.Catalog().Resolve(typo)).Suggestions[0].ShouldBe(intended);

    [Fact]
    public void PerfModifier_IsExplainedAsUnsupported()
    {
        var error = Should.Throw<PerfEventNameException>(() => _sysfs.Catalog().Resolve("cycles:u"));

        error.Suggestions[0].ShouldBe("cycles");
        error.Message.ShouldContain("modifiers such as ':u' or ':k' are not part of the name");
    }

    [Fact]
    public void EmptyName_IsRejectedWithAHint() =>
        Should.Throw<PerfEventNameException>(() => _sysfs.Catalog().Resolve("  ")).Message.ShouldContain("empty");

    [Fact]
    public void EditDistance_IsOptimalStringAlignmentIgnoringCase()
    {
        PerfEventSuggestions.EditDistance("kitten", "sitting").ShouldBe(3);
        PerfEventSuggestions.EditDistance("CYCLES", "cycles").ShouldBe(0);
        PerfEventSuggestions.EditDistance("", "abc").ShouldBe(3);
        PerfEventSuggestions.EditDistance("brnach", "branch").ShouldBe(1, "a swapped pair is one typo");
        PerfEventSuggestions.EditDistance("ca", "abc").ShouldBe(3, "OSA edits no substring twice (true Damerau-Levenshtein says 2)");
    }

    [Fact]
    public void Nearest_OffersThePreferredNamesFirst_AtMostThree_AndNothingFar()
    {
        string[] own = ["tsc", "allocated-bytes", "jit-methods"];
        string[] others = ["task-clock", "tsc-ish", "ts", "LLC-loads", "LLC-load-misses"];

        PerfEventSuggestions.Nearest("tsx", own, others).ShouldBe(["tsc", "ts"]);
        PerfEventSuggestions.Nearest("allocated-byte", own, others).ShouldBe(["allocated-bytes"]);
        PerfEventSuggestions.Nearest("t", ["a", "b", "c", "d"], []).ShouldBe(["a", "b", "c"]);
        PerfEventSuggestions.Nearest("throughput", own, others).ShouldBeEmpty();
    }

    [Fact]
    public void GenericNames_ListCanonicalNamesOnce()
    {
        PerfEventCatalog.GenericNames.ShouldContain("cycles");
        PerfEventCatalog.GenericNames.ShouldContain("L1-dcache-load-misses");
        PerfEventCatalog.GenericNames.ShouldContain("task-clock");
        PerfEventCatalog.GenericNames.ShouldNotContain("cpu-cycles");
        PerfEventCatalog.GenericNames.Count.ShouldBe(10 + 10 + 42);
    }
}
