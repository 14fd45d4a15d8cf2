using Picollo.Baselines;
using Picollo.Counters;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class BaselinePortabilityTests
{
    [Fact]
    public void SameModel_ComparesEverything()
    {
        MachineFingerprint sameModelOtherKernel = Machine(Epyc.CpuModel, kernel: "6.19.0", cores: 64);

        foreach (CounterPortability p in Enum.GetValues<CounterPortability>())
            BaselinePortability.IsComparable(p, Epyc, sameModelOtherKernel, out _).ShouldBeTrue(p.ToString());
    }

    [Fact]
    public void SameModelAtAnotherClock_ComparesRuntimeAndInstructionsButNotTime()
    {
        MachineFingerprint fast = Machine(Epyc.CpuModel, tscMegahertz: 2_600), slow = Machine(Epyc.CpuModel, tscMegahertz: 2_100);

        BaselinePortability.IsComparable(CounterPortability.SameRuntime, fast, slow, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameIsaAndRuntime, fast, slow, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameCpuModel, fast, slow, out string? reason).ShouldBeFalse();
        reason.ShouldBe("different clock (TSC 2,600 vs 2,100 MHz)");

        // An entry that predates the rate compares on the model alone.
        BaselinePortability.IsComparable(CounterPortability.SameCpuModel, Machine(Epyc.CpuModel), slow, out _).ShouldBeTrue();
    }

    [Fact]
    public void DifferentModelSameIsa_ComparesRuntimeAndInstructionsOnly()
    {
        BaselinePortability.IsComparable(CounterPortability.SameRuntime, Epyc, Xeon, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameIsaAndRuntime, Epyc, Xeon, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameCpuModel, Epyc, Xeon, out string? reason).ShouldBeFalse();
        reason.ShouldBe($"different CPU model ({Epyc.CpuModel} vs {Xeon.CpuModel})");
    }

    [Fact]
    public void DifferentIsa_ComparesRuntimeCountersOnly()
    {
        MachineFingerprint avx512 = Machine(Epyc.CpuModel, isa: ["avx", "avx2", "avx512f", "bmi2", "sse4.2"]);

        BaselinePortability.IsComparable(CounterPortability.SameRuntime, Epyc, avx512, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameIsaAndRuntime, Epyc, avx512, out string? reason).ShouldBeFalse();
        reason!.ShouldStartWith("different ISA extensions");
    }

    [Fact]
    public void DifferentRuntime_ComparesNothing()
    {
        MachineFingerprint net11 = Machine(Epyc.CpuModel, runtime: "11.0.0");

        foreach (CounterPortability p in Enum.GetValues<CounterPortability>())
        {
            BaselinePortability.IsComparable(p, Epyc, net11, out string? reason).ShouldBeFalse();
            reason.ShouldBe("different .NET runtime (10.0 vs 11.0)");
        }
    }

    [Fact]
    public void RuntimePatchAndConcurrentGC_PatchComparesGcModeDoesNot()
    {
        BaselinePortability.IsComparable(CounterPortability.SameRuntime, Epyc, Machine(Epyc.CpuModel, runtime: "10.0.7"), out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameRuntime, Epyc, Machine(Epyc.CpuModel, concurrentGC: true), out string? reason).ShouldBeFalse();
        reason.ShouldBe("different GC mode (workstation, non-concurrent vs workstation, concurrent)");
    }

    [Fact]
    public void EntryFromOtherModel_GuardsAllocationsAndInstructionsButNotCycles()
    {
        var file = new BaselineFile([new BaselineEntry(Epyc, Record(AllocatedBytes(Constant(88)), Instructions(Constant(500)), Cycles(Constant(300))))]);

        IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(file, Xeon, Record(AllocatedBytes(Constant(88)), Instructions(Constant(500)), Cycles(Constant(900))));

        verdicts.Select(v => v.Status).ShouldBe([CounterVerdictStatus.Pass, CounterVerdictStatus.Pass, CounterVerdictStatus.NoBaseline]);
        verdicts[0].BaselineMachineId.ShouldBe(Epyc.Id);
        verdicts[2].Text.ShouldBe($"cycles: no baseline for this machine (1 entry from another machine: different CPU model ({Epyc.CpuModel} vs {Xeon.CpuModel}))");
    }
}
