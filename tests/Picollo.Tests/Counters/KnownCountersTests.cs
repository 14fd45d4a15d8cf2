using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class KnownCountersTests
{
    [Theory]
    [InlineData(CounterKind.Runtime, "allocated-bytes", "SameRuntime")]
    [InlineData(CounterKind.Runtime, "lock-contentions", "SameRuntime")]
    [InlineData(CounterKind.Hardware, "instructions", "SameIsaAndRuntime")]
    [InlineData(CounterKind.Hardware, "branches", "SameIsaAndRuntime")]
    [InlineData(CounterKind.Hardware, "branch-instructions", "SameIsaAndRuntime")]
    [InlineData(CounterKind.Hardware, "cycles", "SameCpuModel")]
    [InlineData(CounterKind.Hardware, "branch-misses", "SameCpuModel")]
    [InlineData(CounterKind.Tsc, "tsc", "SameCpuModel")]
    [InlineData(CounterKind.Clock, "clock", "SameClock")]
    [InlineData(CounterKind.Software, "task-clock", "SameCpuModel")]
    [InlineData(CounterKind.HardwareCache, "L1-dcache-load-misses", "SameCpuModel")]
    [InlineData(CounterKind.Runtime, "some-future-runtime-counter", "SameRuntime")]
    public void KindAndName_DecidePortability(CounterKind kind, string name, string expected) =>
        KnownCounters.Of(name, kind).Portability.ShouldBe(Enum.Parse<CounterPortability>(expected));

    [Theory]
    [InlineData(CounterKind.Runtime, "allocated-bytes", true, false)]
    [InlineData(CounterKind.Runtime, "Gen0-Collections", false, false)]
    [InlineData(CounterKind.Runtime, "jit-il-bytes", true, false)]
    [InlineData(CounterKind.Runtime, "lock-contentions", false, false)]
    [InlineData(CounterKind.Tsc, "tsc", false, true)]
    [InlineData(CounterKind.Clock, "clock", false, true)]
    [InlineData(CounterKind.Hardware, "cpu-cycles", false, true)]
    [InlineData(CounterKind.Hardware, "ref-cycles", false, true)]
    [InlineData(CounterKind.Software, "task-clock", false, true)]
    [InlineData(CounterKind.Software, "cpu-clock", false, true)]
    [InlineData(CounterKind.Software, "page-faults", false, false)]
    [InlineData(CounterKind.Raw, "r01c4", false, false)]
    public void KindAndName_DecideDeterminismAndTime(CounterKind kind, string name, bool deterministic, bool timeLike)
    {
        CounterTraits traits = KnownCounters.Of(name, kind);

        traits.IsDeterministic.ShouldBe(deterministic);
        traits.IsTimeLike.ShouldBe(timeLike);
    }

    [Fact]
    public void KnownNameOfAnotherKind_IsDerivedFromTheKind()
    {
        // A sysfs event that happens to be called "allocated-bytes" is not the runtime's exact counter.
        CounterTraits traits = KnownCounters.Of("allocated-bytes", CounterKind.Raw);

        traits.IsDeterministic.ShouldBeFalse();
        traits.Portability.ShouldBe(CounterPortability.SameCpuModel);
    }

    [Fact]
    public void DefaultSet_IsWhatAMeasurementWithoutCountersMeasures()
    {
        PerfOptions.DefaultCounters.ShouldBe(KnownCounters.DefaultSet);
        KnownCounters.DefaultSet.ShouldBe(
        [
            "tsc", "allocated-bytes", "gen0-collections", "gen1-collections", "gen2-collections", "jit-methods", "jit-il-bytes",
            "lock-contentions", "cycles", "instructions", "branch-misses", "cache-misses", "task-clock", "page-faults",
        ]);
    }

    [Fact]
    public void DefaultSetFor_AMachineWithoutTsc_MeasuresTheClockInItsPlace()
    {
        KnownCounters.DefaultSetFor(tscCounts: true).ShouldBe(KnownCounters.DefaultSet);
        KnownCounters.DefaultSetFor(tscCounts: false).ShouldBe(
            [.. KnownCounters.DefaultSetFor(tscCounts: true).Select(static n => n == "tsc" ? "clock" : n)]);

        // The clock is judged as time, by the same rule as tsc.
        VerdictPolicy.Default.GetRule("clock", CounterKind.Clock).ShouldBe(CounterVerdictRule.Time);
        VerdictPolicy.Default.GetRule("tsc", CounterKind.Tsc).ShouldBe(CounterVerdictRule.Time);
    }

    [Fact]
    public void Sources_ReportTheTableUnits()
    {
        using var runtime = new RuntimeCounterSource();
        using var tsc = new TscCounterSource();
        using var clock = new ClockCounterSource();

        foreach (CounterDescriptor descriptor in runtime.Descriptors.Concat(tsc.Descriptors).Concat(clock.Descriptors))
            descriptor.Unit.ShouldBe(KnownCounters.Get(descriptor.Name).Unit, descriptor.Name);
        KnownCounters.Get("allocated-bytes").Unit.ShouldBe("bytes");
        KnownCounters.Get("tsc").Unit.ShouldBe("ticks");
        KnownCounters.Get("clock").Unit.ShouldBe("ns");
    }

    [Fact]
    public void UnknownName_GetThrowsNamingIt() =>
        Should.Throw<KeyNotFoundException>(() => KnownCounters.Get("no-such-counter")).Message.ShouldContain("no-such-counter");
}
