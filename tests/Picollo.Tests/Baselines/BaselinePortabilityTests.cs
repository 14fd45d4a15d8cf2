using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement.Simulated;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class BaselinePortabilityTests
{
    // The portabilities of counters measured on the host; simulated counters compare simulated machines (below).
    private static readonly CounterPortability[] HostPortabilities =
        [.. Enum.GetValues<CounterPortability>().Where(static p => p != CounterPortability.SameSimulator)];

    private static readonly SimulatorInfo Callgrind = new(
        "callgrind 3.19.0", "X64", ["avx", "avx2", "bmi1", "bmi2", "fma", "lzcnt", "popcnt", "sse4.2"], "10.0.12", false, false);

    [Fact]
    public void SimulatedCounters_CompareTheSameSimulatedMachine_WhateverTheHost()
    {
        // Built from the same facts on two hosts: the same fingerprint, so one entry serves both.
        MachineFingerprint one = MachineFingerprint.ForSimulator(Callgrind), other = MachineFingerprint.ForSimulator(Callgrind with { });

        one.Id.ShouldBe(other.Id);
        one.IsSimulated.ShouldBeTrue();
        one.Id.ShouldStartWith("simulated-callgrind-3-19-0.x64.net10.0.12.");
        BaselinePortability.IsComparable(CounterPortability.SameSimulator, one, other, out string? reason).ShouldBeTrue(reason);
    }

    [Theory]
    [InlineData("tool", "another simulator (simulated: callgrind 3.19.0 vs simulated: callgrind 3.22.0)")]
    [InlineData("runtime", "different .NET runtime (10.0.12 vs 10.0.13)")]
    [InlineData("isa", "different ISA extensions under simulation (avx avx2 bmi1 bmi2 fma lzcnt popcnt sse4.2 vs avx bmi1 bmi2 lzcnt popcnt sse4.2)")]
    [InlineData("gc", "different GC mode (workstation, non-concurrent vs server, non-concurrent)")]
    public void SimulatedCounters_DoNotCompareAcrossSimulatorRuntimeIsaOrGc(string change, string expected)
    {
        SimulatorInfo changed = change switch
        {
            "tool" => Callgrind with { Tool = "callgrind 3.22.0" },
            "runtime" => Callgrind with { RuntimeVersion = "10.0.13" },
            "isa" => Callgrind with { IsaExtensions = ["avx", "bmi1", "bmi2", "lzcnt", "popcnt", "sse4.2"] },
            _ => Callgrind with { IsServerGC = true },
        };

        BaselinePortability.IsComparable(
            CounterPortability.SameSimulator, MachineFingerprint.ForSimulator(Callgrind), MachineFingerprint.ForSimulator(changed), out string? reason)
            .ShouldBeFalse();
        reason.ShouldBe(expected);
    }

    [Fact]
    public void SimulatedCounters_NeverCompareAHostEntry()
    {
        BaselinePortability.IsComparable(CounterPortability.SameSimulator, Epyc, MachineFingerprint.ForSimulator(Callgrind), out string? reason)
            .ShouldBeFalse();
        reason.ShouldBe("not a simulated machine's entry");
    }

    [Fact]
    public void SameModel_ComparesEverything()
    {
        MachineFingerprint sameModelOtherKernel = Machine(Epyc.CpuModel, kernel: "6.19.0", cores: 64);

        foreach (CounterPortability p in HostPortabilities)
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
    public void ClockCounter_ComparesOnlyOnTheSameOsAtTheSameClockRate()
    {
        MachineFingerprint linux = Host("Linux", 1_000_000_000), windows = Host("Windows", 10_000_000);

        BaselinePortability.Of(CounterKind.Clock, "clock").ShouldBe(CounterPortability.SameClock);
        BaselinePortability.IsComparable(CounterPortability.SameClock, linux, Host("Linux", 1_000_000_000), out string? same).ShouldBeTrue(same);

        // A dual-boot laptop: the same CPU, so its time counters would otherwise compare; the clock is the OS's.
        BaselinePortability.IsComparable(CounterPortability.SameCpuModel, windows, linux, out _).ShouldBeTrue();
        BaselinePortability.IsComparable(CounterPortability.SameClock, windows, linux, out string? reason).ShouldBeFalse();
        reason.ShouldBe("different OS for the clock counter (Windows vs Linux)");
        BaselinePortability.IsComparable(CounterPortability.SameClock, windows, Host("Windows", 24_000_000), out reason).ShouldBeFalse();
        reason.ShouldBe("different clock rate (10,000,000 vs 24,000,000 Hz)");
    }

    [Fact]
    public void WindowsDevelopersClockEntry_NeverStandsInForLinuxTime()
    {
        MachineFingerprint linux = Host("Linux", null, tscMegahertz: 2_600), windows = Host("Windows", 10_000_000);
        var file = new BaselineFile(
        [
            new BaselineEntry(windows, Record(Clock(Constant(200)), AllocatedBytes(Constant(88)))),
            new BaselineEntry(linux, Record(Tsc(Constant(520)), AllocatedBytes(Constant(88)))),
        ]);

        // The Linux runner's tsc is judged against its own entry; a clock it measures finds no entry it may compare with.
        IReadOnlyList<CounterVerdict> onLinux = BaselineComparer.Compare(
            file, linux, Record(Tsc(Constant(520)), Clock(Constant(200)), AllocatedBytes(Constant(88))));
        onLinux.Select(static v => v.Status).ShouldBe([CounterVerdictStatus.Pass, CounterVerdictStatus.NoBaseline, CounterVerdictStatus.Pass]);
        onLinux[0].BaselineMachineId.ShouldBe(linux.Id);
        onLinux[1].Text.ShouldEndWith("(1 entry from another machine: different OS for the clock counter (Windows vs Linux))");

        // The developer's clock is judged against the developer's entry.
        IReadOnlyList<CounterVerdict> onWindows = BaselineComparer.Compare(file, windows, Record(Clock(Constant(200))));
        onWindows.ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Pass);
        onWindows[0].BaselineMachineId.ShouldBe(windows.Id);
    }

    private static MachineFingerprint Host(string os, long? clockHertz, int? tscMegahertz = null) =>
        new(Epyc.CpuModel, "X64", Epyc.IsaExtensions, false, 4, os, "6.18.0", "10.0.1", false, false, tscMegahertz, clockHertz);

    private static BaselineCounter Clock(Picollo.Metrics.HdrHistogram h) => BaselineCounter.FromHistogram("clock", "ns", CounterKind.Clock, h, 1);

    private static BaselineCounter Tsc(Picollo.Metrics.HdrHistogram h) => BaselineCounter.FromHistogram("tsc", "ticks", CounterKind.Tsc, h, 1);

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

        foreach (CounterPortability p in HostPortabilities)
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
