using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

public sealed class PerfOptionsTests
{
    [Fact]
    public void Defaults_AreTheDocumentedOnes()
    {
        PerfOptions o = PerfOptions.Default;

        o.Samples.ShouldBe(1_000);
        o.OperationsPerSample.ShouldBe(0);
        o.WarmupTime.ShouldBe(TimeSpan.FromMilliseconds(100));
        o.TimeBudget.ShouldBe(TimeSpan.FromSeconds(1));
        o.RelativeError.ShouldBe(0.001);
        o.UseNoGCRegion.ShouldBeTrue();
        o.PinThread.ShouldBeTrue();
        o.Counters.ShouldBeEmpty();
        o.EffectiveCounters.ShouldBe(PerfOptions.DefaultCounters);
        PerfOptions.AssemblyDefault.ShouldBe(PerfOptions.Default);
    }

    [Theory]
    [InlineData("Samples", "PerfOptions.Samples must be 1 or more.")]
    [InlineData("MinSamples", "PerfOptions.MinSamples must be 1 or more.")]
    [InlineData("CalibrationSamples", "PerfOptions.CalibrationSamples must be 1 or more.")]
    [InlineData("WarmupCount", "PerfOptions.WarmupCount must be 0 or more.")]
    [InlineData("OperationsPerSample", "PerfOptions.OperationsPerSample must be 0 (chosen by the pilot) or more.")]
    [InlineData("WarmupTime", "PerfOptions.WarmupTime must be zero or positive.")]
    [InlineData("TimeBudget", "PerfOptions.TimeBudget must be positive.")]
    [InlineData("RelativeError", "PerfOptions.RelativeError must lie in (0, 0.1].")]
    [InlineData("NoGCRegionMaxBytes", "PerfOptions.NoGCRegionMaxBytes must be positive.")]
    public void InvalidValue_ThrowsArgumentException_NamingThePropertyAndTheRule(string property, string message)
    {
        Action set = property switch
        {
            "Samples" => () => _ = PerfOptions.Default with { Samples = -1 },
            "MinSamples" => () => _ = PerfOptions.Default with { MinSamples = 0 },
            "CalibrationSamples" => () => _ = PerfOptions.Default with { CalibrationSamples = 0 },
            "WarmupCount" => () => _ = PerfOptions.Default with { WarmupCount = -5 },
            "OperationsPerSample" => () => _ = PerfOptions.Default with { OperationsPerSample = -1 },
            "WarmupTime" => () => _ = PerfOptions.Default with { WarmupTime = TimeSpan.FromMilliseconds(-1) },
            "TimeBudget" => () => _ = PerfOptions.Default with { TimeBudget = TimeSpan.Zero },
            "RelativeError" => () => _ = PerfOptions.Default with { RelativeError = 0.5 },
            _ => () => _ = PerfOptions.Default with { NoGCRegionMaxBytes = 0 },
        };

        var e = Should.Throw<ArgumentOutOfRangeException>(set);

        e.ParamName.ShouldBe(property);
        e.Message.ShouldStartWith(message);
    }

    [Fact]
    public void BlankOrRepeatedCounterNames_Throw()
    {
        Should.Throw<ArgumentException>(() => PerfOptions.Default with { Counters = ["tsc", " "] })
            .Message.ShouldStartWith("PerfOptions.Counters[1] is blank");
        Should.Throw<ArgumentException>(() => PerfOptions.Default with { Counters = ["tsc", "TSC"] })
            .Message.ShouldBe("PerfOptions.Counters names \"TSC\" more than once.");
    }

    [Fact]
    public void NullOptionsOrBody_Throw()
    {
        Should.Throw<ArgumentNullException>(() => Perf.Measure(null!, static () => { }));
        Should.Throw<ArgumentNullException>(() => Perf.Measure(PerfOptions.Default, (Action)null!));
        Should.Throw<ArgumentNullException>(() => PerfOptions.AssemblyDefault = null!);
    }
}
