using System.Diagnostics;
using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The portable clock measured for real on this machine (Linux x64, where tsc counts too and so can check it), and its
/// baseline entry written and judged through the public API.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class ClockMeasurementTests
{
    private static readonly PerfOptions s_quick = PerfOptions.Default with
    {
        WarmupTime = TimeSpan.FromMilliseconds(30),
        Samples = 100,
        CalibrationSamples = 50,
        TimeBudget = TimeSpan.FromSeconds(1),
    };

    // Busy for at least 20 µs of wall time: a body whose time is known without the counter that measures it.
    private static readonly long s_spinTicks = Stopwatch.Frequency * 20 / 1_000_000;

    [Fact]
    public void SpinOf20Microseconds_MeasuresAbout20MicrosecondsPerOperation_AsTscDoes()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["clock", "tsc"] }, static () => Spin());

        CounterResult clock = result.Clock;
        clock.IsAvailable.ShouldBeTrue(clock.UnavailableReason);
        clock.Unit.ShouldBe("ns");
        clock.Kind.ShouldBe(CounterKind.Clock);
        string detail = $"clock {clock}, tsc {result.Tsc}, {result.Run}";
        TestContext.Current.TestOutputHelper?.WriteLine(detail);

        // At least the spin (the floor of every sample), and well under a millisecond at the median: a wrong unit or a missing
        // division by the operations per sample is off by 100× or more.
        clock.P0.ShouldBeGreaterThanOrEqualTo(19_000, detail);
        clock.P50.ShouldBeLessThan(1_000_000, detail);

        // The same boundaries read by tsc, in nanoseconds: the two clocks agree on the median sample (loosely: they are read one
        // after the other, and the kernel's clock is slewed by NTP while the TSC rate is calibrated once).
        if (Tsc.IsSupported)
        {
            double tscNs = result.Tsc.P50 * 1e9 / Tsc.Frequency.Hertz;
            (clock.P50 / tscNs).ShouldBeInRange(0.9, 1.1, detail);
        }
    }

    [Fact]
    public void ClockBaseline_IsWrittenWithItsKind_AndJudgesTheSameBody()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("ClockTests.cs");
        var options = new BaselineStoreOptions { GetEnvironmentVariable = TestEnvironment.Local(temp) };
        PerfOptions measured = s_quick with { Counters = ["clock", "allocated-bytes"] };

        // Time is recorded from the body's final code only (a busy suite can hold it at tier 0 through a recording): again
        // until the entry holds the clock, as the notice would say.
        int recordings = 0;
        do
            Perf.Measure(measured, 2_000, static n => MeasuredBodies.Chain(n))
                .ShouldNotRegress(options: options with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Chain");
        while (Recorded(temp) is null && ++recordings < 3);

        BaselineCounter clock = Recorded(temp).ShouldNotBeNull("no recording of three ran final code");
        clock.Unit.ShouldBe("ns");
        clock.Kind.ShouldBe(CounterKind.Clock);
        BaselineEntry entry = BaselineStore.Read(temp.Combine("ClockTests.Chain.perf.json"))!.Find(MachineFingerprint.Current.Id).ShouldNotBeNull();
        entry.Machine.ClockHertz.ShouldBe(Tsc.IsSupported ? null : Stopwatch.Frequency);

        // The same body judged against it: the clock is compared (as time, on its floor), not left out.
        Perf.Measure(measured, 2_000, static n => MeasuredBodies.Chain(n))
            .ShouldNotRegress(options: options, maxChange: 0.6, callerFilePath: source, testMethod: "Chain");
        host.Output[^1].ShouldContain("clock P10 ", Case.Sensitive, string.Join("\n", host.Output));
    }

    private static BaselineCounter? Recorded(TempDirectory temp) =>
        BaselineStore.Read(temp.Combine("ClockTests.Chain.perf.json"))?.Find(MachineFingerprint.Current.Id)?.Record.Find("clock");

    private static void Spin()
    {
        long end = Stopwatch.GetTimestamp() + s_spinTicks;
        while (Stopwatch.GetTimestamp() < end)
        {
        }
    }
}
