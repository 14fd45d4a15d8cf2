using Picollo.Measurement;
using Picollo.Testing;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>The knobs every adapter attribute declares: parsed once, test over assembly over built-in, refused with the property, the token and the form.</summary>
public sealed class PerfTestSettingsTests
{
    [Fact]
    public void Budgets_AreParsedPerCounter_AndTheirCountersAreMeasured()
    {
        var test = new PerfDefaultsAttribute { Counters = "tsc", MaxP99 = "tsc:20000, allocated-bytes:64", ZeroBudget = "gen0-collections", MaxMean = "task-clock:1000.5" };

        PerfTestSettings settings = Parse(test);

        settings.Budgets.Select(static b => $"{b.Knob} {b.Counter} {b.Max}").ShouldBe([
            "MaxP99 tsc 20000", "MaxP99 allocated-bytes 64", "MaxMean task-clock 1000.5", "ZeroBudget gen0-collections 0"]);
        settings.Options.Counters.ShouldBe(["tsc", "allocated-bytes", "task-clock", "gen0-collections"]);
    }

    [Fact]
    public void TheTestsOwnKnob_WinsOverTheAssemblys_WhichWinsOverTheBuiltIn()
    {
        var assembly = new PerfDefaultsAttribute { Samples = 500, TimeBudgetMs = 300, MaxChange = 0.2 };
        var test = new PerfDefaultsAttribute { Samples = 200 };

        PerfTestSettings settings = PerfTestSettings.Parse("[PerfFact]", test, assembly, PerfOptions.Default);

        settings.Options.Samples.ShouldBe(200);
        settings.Options.TimeBudget.ShouldBe(TimeSpan.FromMilliseconds(300));
        settings.Options.WarmupTime.ShouldBe(PerfOptions.Default.WarmupTime);
        settings.MaxChange.ShouldBe(0.2);
        settings.Confidence.ShouldBeNull();
        settings.Baseline.ShouldBeNull("not declared: the style decides");
        settings.WhenUnavailable.ShouldBe(UnavailableCounterPolicy.Skip);
    }

    [Fact]
    public void Fallback_MapsTheCounterToItsStandIn_AndMeasuresIt()
    {
        PerfTestSettings settings = Parse(new PerfDefaultsAttribute { Counters = "cycles", MaxP99 = "cycles:5000", Fallback = "cycles->tsc" });

        settings.Fallbacks["cycles"].ShouldBe("tsc");
        settings.Options.Counters.ShouldBe(["cycles", "tsc"]);
    }

    [Theory]
    [InlineData("MaxP99", "tsc:abc", "[PerfFact] MaxP99 = \"tsc:abc\": 'abc' is not a number. The valid form is \"counter:value,counter:value\" with values per operation, e.g. \"tsc:20000,allocated-bytes:64\".")]
    [InlineData("MaxP50", "tsc", "[PerfFact] MaxP50 = \"tsc\": 'tsc' is not counter:value. The valid form is \"counter:value,counter:value\" with values per operation, e.g. \"tsc:20000,allocated-bytes:64\".")]
    [InlineData("MaxMean", "tsc:-3", "[PerfFact] MaxMean = \"tsc:-3\": '-3' is negative: a budget is a count per operation, 0 or more. The valid form is \"counter:value,counter:value\" with values per operation, e.g. \"tsc:20000,allocated-bytes:64\".")]
    [InlineData("Fallback", "cycles=>tsc", "[PerfFact] Fallback = \"cycles=>tsc\": 'cycles=>tsc' is not a pair. The valid form is \"counter->fallback\", comma-separated, e.g. \"cycles->tsc\".")]
    [InlineData("Fallback", "tsc->tsc", "[PerfFact] Fallback = \"tsc->tsc\": 'tsc->tsc' falls back to itself. The valid form is \"counter->fallback\", comma-separated, e.g. \"cycles->tsc\".")]
    [InlineData("Counters", " , ", "[PerfFact] Counters = \" , \": it names no counter. The valid form is a comma-separated list of counter names, e.g. \"tsc,allocated-bytes\".")]
    public void InvalidText_NamesThePropertyTheTokenAndTheForm(string knob, string value, string message)
    {
        var test = new PerfDefaultsAttribute();
        typeof(PerfDefaultsAttribute).GetProperty(knob)!.SetValue(test, value);

        Should.Throw<PerfTestConfigurationException>(() => Parse(test)).Message.ShouldBe(message);
    }

    [Fact]
    public void InvalidNumbers_NameThePropertyAndTheRange()
    {
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { Samples = 5 })).Message
            .ShouldBe("[PerfFact] Samples = 5: a measurement needs at least 10 samples. The valid form is a whole number of samples, 10 or more (1,000 by default).");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { TimeBudgetMs = 0 })).Message
            .ShouldStartWith("[PerfFact] TimeBudgetMs = 0: a time budget must be positive.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { WarmupMs = -1 })).Message
            .ShouldStartWith("[PerfFact] WarmupMs = -1: a warmup cannot be negative.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { MaxChange = 0 })).Message
            .ShouldStartWith("[PerfFact] MaxChange = 0: the threshold is a relative change above 0.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { Confidence = 1 })).Message
            .ShouldStartWith("[PerfFact] Confidence = 1: a confidence lies in [0.5, 0.9999].");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { MaxCohensD = 0 })).Message
            .ShouldBe("[PerfFact] MaxCohensD = 0: Cohen's d gate lies in (0, 10]. The valid form is an effect size of the floors, e.g. 0.5 or 2 (docs/VERDICTS.md, \"Cohen's d\").");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { RecordingProcesses = 17 })).Message
            .ShouldBe("[PerfFact] RecordingProcesses = 17: a recording measures 0 to 16 fresh processes. The valid form is a whole number from 0 (the test's process only) to 16 (3 by default).");
    }

    [Fact]
    public void CohensDGate_AndRecordingProcesses_AreTakenFromTheTestOverTheAssembly()
    {
        var assembly = new PerfDefaultsAttribute { MaxCohensD = 0.8, RecordingProcesses = 0 };

        PerfTestSettings settings = PerfTestSettings.Parse("[PerfFact]", new PerfDefaultsAttribute { RecordingProcesses = 5 }, assembly, PerfOptions.Default);

        settings.MaxCohensD.ShouldBe(0.8);
        settings.RecordingProcesses.ShouldBe(5);
        Parse(new PerfDefaultsAttribute()).RecordingProcesses.ShouldBeNull("not declared: the options' default (3)");
    }

    [Fact]
    public void AnUnknownCounter_IsNamedWithTheKnownOnes()
    {
        var e = Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { ZeroBudget = "allocated-byts" }));

        e.Message.ShouldStartWith("[PerfFact] ZeroBudget = \"allocated-byts\": 'allocated-byts' is not a counter. Unknown counter 'allocated-byts'. Picollo's own counters are tsc, allocated-bytes,");
    }

    [Fact]
    public void AnInvalidAssemblyDefault_IsNamedAsSuch()
    {
        var assembly = new PerfDefaultsAttribute { MaxP99 = "tsc:lots" };

        Should.Throw<PerfTestConfigurationException>(() => PerfTestSettings.Parse("[PerfFact]", new PerfDefaultsAttribute(), assembly, PerfOptions.Default))
            .Message.ShouldStartWith("[assembly: PerfDefaults] MaxP99 = \"tsc:lots\": 'lots' is not a number.");
    }

    private static PerfTestSettings Parse(IPerfTestDeclaration test) => PerfTestSettings.Parse("[PerfFact]", test, null, PerfOptions.Default);
}
