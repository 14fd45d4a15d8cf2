using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.Xunit;
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

        e.Message.ShouldStartWith("[PerfFact] ZeroBudget = \"allocated-byts\": 'allocated-byts' is not a counter. Unknown counter 'allocated-byts'. Did you mean allocated-bytes? Picollo's own counters are tsc, clock, allocated-bytes,");
    }

    [Theory]
    [InlineData("allocated-byte", "allocated-bytes")]
    [InlineData("alloacted-bytes", "allocated-bytes")]
    [InlineData("jit-method", "jit-methods")]
    [InlineData("instrutions", "instructions")]
    [InlineData("cylces", "cycles")]
    public void ATypo_SuggestsTheNearestCounterNames_PicollosOwnFirst(string typo, string meant)
    {
        var e = Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { ZeroBudget = typo }));

        // Issue 27: "allocated-byte" drew "LLC-load-misses, LLC-loads, …", the nearest of the perf names where none is near.
        e.Message.ShouldContain($"Unknown counter '{typo}'. Did you mean {meant}");
        e.Message.ShouldNotContain("LLC-");
        e.Message.ShouldContain("Picollo's own counters are tsc, clock, allocated-bytes,");
    }

    [Fact]
    public void ANameNearNothing_SuggestsNothing_AndSaysWhereTheNamesAre()
    {
        var e = Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfDefaultsAttribute { ZeroBudget = "throughput" }));

        e.Message.ShouldNotContain("Did you mean");
        e.Message.ShouldContain("'throughput' is none of this machine's: 'perf list' shows them");
    }

    [Fact]
    public void AnInvalidAssemblyDefault_IsNamedAsSuch()
    {
        var assembly = new PerfDefaultsAttribute { MaxP99 = "tsc:lots" };

        Should.Throw<PerfTestConfigurationException>(() => PerfTestSettings.Parse("[PerfFact]", new PerfDefaultsAttribute(), assembly, PerfOptions.Default))
            .Message.ShouldStartWith("[assembly: PerfDefaults] MaxP99 = \"tsc:lots\": 'lots' is not a number.");
    }

    [Fact]
    public void Against_WithoutAClaim_IsNotSlowerBy5Percent_OrTheAssemblysMaxSlowdown()
    {
        PerfTestSettings settings = Parse(new PerfFactAttribute { Against = " NaiveCount " });

        settings.Against.ShouldBe("NaiveCount");
        settings.MinSpeedup.ShouldBeNull();
        settings.MaxSlowdown.ShouldBe(PerfTestSettings.DefaultMaxSlowdown);
        settings.MinCohensD.ShouldBeNull();

        var assembly = new PerfDefaultsAttribute { MaxSlowdown = 0.1, MinCohensD = 0.8 };
        PerfTestSettings fromAssembly = PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute { Against = "NaiveCount" }, assembly, PerfOptions.Default);
        fromAssembly.MaxSlowdown.ShouldBe(0.1);
        fromAssembly.MinCohensD.ShouldBeNull("the gate belongs to a speed-up claim");
    }

    [Fact]
    public void MinSpeedup_IsTheClaim_WithItsGate_AndAMaxSlowdownOnlyWhenTheTestDeclaresOne()
    {
        var assembly = new PerfDefaultsAttribute { MaxSlowdown = 0.1, MinCohensD = 0.8 };

        PerfTestSettings speedup = PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute { Against = "NaiveCount", MinSpeedup = 2 }, assembly, PerfOptions.Default);
        PerfTestSettings both = PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute { Against = "NaiveCount", MinSpeedup = 2, MaxSlowdown = 0, MinCohensD = 1.2 }, assembly, PerfOptions.Default);

        (speedup.MinSpeedup, speedup.MaxSlowdown, speedup.MinCohensD).ShouldBe((2.0, null, 0.8));
        (both.MinSpeedup, both.MaxSlowdown, both.MinCohensD).ShouldBe((2.0, 0.0, 1.2));
        Parse(new PerfFactAttribute()).Against.ShouldBeNull();
        Parse(new PerfFactAttribute()).MaxSlowdown.ShouldBeNull("no reference, no relative claim");
        PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute(), assembly, PerfOptions.Default).MaxSlowdown.ShouldBeNull("the assembly's default applies to tests with Against only");
    }

    [Theory]
    [InlineData("MinSpeedup", 0.0, "[PerfFact] MinSpeedup = 0: a speed-up is a finite factor above 0. The valid form is a factor, e.g. 2.0 for at least twice as fast as the reference (below 1 allows a bounded slowdown: 0.95 allows about 5 % slower).")]
    [InlineData("MinSpeedup", -2.0, "[PerfFact] MinSpeedup = -2: a speed-up is a finite factor above 0. The valid form is a factor, e.g. 2.0 for at least twice as fast as the reference (below 1 allows a bounded slowdown: 0.95 allows about 5 % slower).")]
    [InlineData("MinSpeedup", double.NaN, "[PerfFact] MinSpeedup = NaN: a speed-up is a finite factor above 0. The valid form is a factor, e.g. 2.0 for at least twice as fast as the reference (below 1 allows a bounded slowdown: 0.95 allows about 5 % slower).")]
    [InlineData("MinSpeedup", double.PositiveInfinity, "[PerfFact] MinSpeedup = Infinity: a speed-up is a finite factor above 0. The valid form is a factor, e.g. 2.0 for at least twice as fast as the reference (below 1 allows a bounded slowdown: 0.95 allows about 5 % slower).")]
    [InlineData("MaxSlowdown", -0.05, "[PerfFact] MaxSlowdown = -0.05: the allowed slowdown is a finite fraction, 0 or more. The valid form is a fraction, e.g. 0.05 for at most 5 % slower than the reference.")]
    [InlineData("MaxSlowdown", double.NaN, "[PerfFact] MaxSlowdown = NaN: the allowed slowdown is a finite fraction, 0 or more. The valid form is a fraction, e.g. 0.05 for at most 5 % slower than the reference.")]
    [InlineData("MinCohensD", 0.0, "[PerfFact] MinCohensD = 0: Cohen's d_z gate lies in (0, 10]. The valid form is an effect size of the paired differences, e.g. 0.8 (large).")]
    public void RelativeNumbers_OutOfRange_NameTheKnobTheValueAndTheForm(string knob, double value, string message)
    {
        var test = new PerfFactAttribute { Against = "NaiveCount", MinSpeedup = 2 };
        typeof(PerfFactAttribute).GetProperty(knob)!.SetValue(test, value);

        Should.Throw<PerfTestConfigurationException>(() => Parse(test)).Message.ShouldBe(message);
    }

    [Fact]
    public void AnInvalidAssemblyMaxSlowdown_IsNamedAsSuch()
    {
        Should.Throw<PerfTestConfigurationException>(() => PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute(), new PerfDefaultsAttribute { MaxSlowdown = -1 }, PerfOptions.Default))
            .Message.ShouldStartWith("[assembly: PerfDefaults] MaxSlowdown = -1: the allowed slowdown is a finite fraction, 0 or more.");
    }

    [Fact]
    public void AnEmptyAgainst_IsRefused()
    {
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfFactAttribute { Against = " " })).Message
            .ShouldBe("[PerfFact] Against = \" \": it names no method. The valid form is the name of a method of the same class with the test's parameters and return type, e.g. Against = nameof(NaiveCount).");
    }

    [Theory]
    [InlineData("MinSpeedup", 2.0)]
    [InlineData("MaxSlowdown", 0.05)]
    [InlineData("MinCohensD", 0.8)]
    public void ARelativeClaim_WithoutAgainst_AsksForTheReference(string knob, double value)
    {
        var test = new PerfFactAttribute();
        typeof(PerfFactAttribute).GetProperty(knob)!.SetValue(test, value);

        Should.Throw<PerfTestConfigurationException>(() => Parse(test)).Message.ShouldBe(
            $"[PerfFact] {knob} = {value.ToString(System.Globalization.CultureInfo.InvariantCulture)} without Against: it is a claim about the test's body against a reference, and the test names none. " +
            "Name the reference beside it, e.g. Against = nameof(NaiveCount): a method of the same class with the test's parameters and return type.");
    }

    [Fact]
    public void BaselineKnobs_BesideAgainst_PointToTheRelativeOnes()
    {
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfFactAttribute { Against = "NaiveCount", Baseline = true })).Message
            .ShouldBe("[PerfFact] Baseline = true with Against = \"NaiveCount\": the claim against the reference replaces the stored baseline. Drop Baseline = true, or drop Against to judge the baseline alone.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfFactAttribute { Against = "NaiveCount", MaxChange = 0.05 })).Message
            .ShouldBe("[PerfFact] MaxChange = 0.05 with Against = \"NaiveCount\": MaxChange is the stored baseline's threshold, and Against replaces the baseline. For the largest slowdown against the reference, write MaxSlowdown = 0.05.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfFactAttribute { Against = "NaiveCount", MaxCohensD = 0.5 })).Message
            .ShouldBe("[PerfFact] MaxCohensD = 0.5 with Against = \"NaiveCount\": MaxCohensD gates a regression against the stored baseline, and Against replaces the baseline. To gate a speed-up over the reference, write MinSpeedup with MinCohensD = 0.5.");
        Should.Throw<PerfTestConfigurationException>(() => Parse(new PerfFactAttribute { Against = "NaiveCount", MinCohensD = 0.8 })).Message
            .ShouldBe("[PerfFact] MinCohensD = 0.8 without MinSpeedup: it gates a speed-up claim, and the test claims none. Add the least speed-up, e.g. MinSpeedup = 1.5, or drop MinCohensD.");

        // The assembly's baseline defaults do not conflict: they apply to the tests without Against.
        PerfTestSettings.Parse("[PerfFact]", new PerfFactAttribute { Against = "NaiveCount" }, new PerfDefaultsAttribute { Baseline = true, MaxChange = 0.1, MaxCohensD = 0.5 }, PerfOptions.Default)
            .MaxSlowdown.ShouldBe(0.05);
    }

    [Fact]
    public void FindReference_BindsAMethodOfTheClassWithTheTestsSignature_StaticOrNot()
    {
        OperationBinder.FindReference("[PerfFact]", Method(nameof(Counting.Fast)), nameof(Counting.NaiveCount)).ShouldBe(Method(nameof(Counting.NaiveCount)));
        OperationBinder.FindReference("[PerfFact]", Method(nameof(Counting.Fast)), nameof(Counting.StaticCount)).ShouldBe(Method(nameof(Counting.StaticCount)));
        OperationBinder.FindReference("[PerfTheory]", Method(nameof(Counting.Steps)), nameof(Counting.NaiveSteps)).ShouldBe(Method(nameof(Counting.NaiveSteps)));
    }

    [Theory]
    [InlineData(nameof(Counting.Fast), "NaiveCont", "[PerfFact] Counting.Fast Against = \"NaiveCont\": Counting has no method NaiveCont. Did you mean NaiveCount? Against names a method of Counting with the test's signature long (); nameof keeps the name right: Against = nameof(NaiveCount).")]
    [InlineData(nameof(Counting.Fast), "Unrelated", "[PerfFact] Counting.Fast Against = \"Unrelated\": Counting has no method Unrelated. Against names a method of Counting with the test's signature long (); nameof keeps the name right. The methods with that signature: NaiveCount, StaticCount.")]
    [InlineData(nameof(Counting.Text), "Lowered", "[PerfFact] Counting.Text Against = \"Lowered\": Counting has no method Lowered. Against names a method of Counting with the test's signature string (string, int[]); nameof keeps the name right, and Counting has none: add the reference, e.g. public string Lowered(string s, int[] n) { ... }.")]
    [InlineData(nameof(Counting.Fast), nameof(Counting.NaiveSteps), "[PerfFact] Counting.Fast Against = \"NaiveSteps\": Counting.NaiveSteps takes (int steps) and the test takes (): both sides are called with the same data. Give NaiveSteps the test's parameters (), or name a method that has them.")]
    [InlineData(nameof(Counting.Fast), nameof(Counting.Generic), "[PerfFact] Counting.Fast Against = \"Generic\": Counting.Generic is generic: both sides are called with the same data. Give Generic the test's parameters (), or name a method that has them.")]
    [InlineData(nameof(Counting.Fast), nameof(Counting.ReturnsInt), "[PerfFact] Counting.Fast Against = \"ReturnsInt\": Counting.ReturnsInt returns int and the test returns long: both sides are measured the same way, their results consumed alike. Make ReturnsInt return long, or name a method that does.")]
    [InlineData(nameof(Counting.Fast), nameof(Counting.Fast), "[PerfFact] Counting.Fast Against = \"Fast\": it names the test method itself, which would be compared with itself. The reference is another method of Counting with the test's signature long (): the code the body must beat or match, e.g. the naive or the previous version, Against = nameof(NaiveCount).")]
    [InlineData(nameof(Counting.WithContext), nameof(Counting.NaiveCount), "[PerfFact] Counting.WithContext Against = \"NaiveCount\": the test takes a PerfContext, so its body is not the measured operation and has nothing to compare. Compare inside the method instead, PerfComparison c = perf.Compare(input, static s => NaiveCount(s), static s => New(s)); c.Tsc.ShouldBeFasterBy(2.0); or drop the PerfContext so the body is the candidate.")]
    public void FindReference_RefusesWhatCannotBeTheReference_WithTheFix(string test, string against, string message)
    {
        Should.Throw<PerfTestConfigurationException>(() => OperationBinder.FindReference("[PerfFact]", Method(test), against)).Message.ShouldBe(message);
    }

    private static System.Reflection.MethodInfo Method(string name) =>
        typeof(Counting).GetMethod(name, System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Static)!;

    private static PerfTestSettings Parse(IPerfTestDeclaration test) => PerfTestSettings.Parse("[PerfFact]", test, null, PerfOptions.Default);

#pragma warning disable CA1822, CA1812 // Methods found by reflection, never called.
    private sealed class Counting
    {
        public static long StaticCount() => 1;

        public long Fast() => 1;

        public long NaiveCount() => 2;

        public long Steps(int steps) => steps;

        public long NaiveSteps(int steps) => steps * 2;

        public int ReturnsInt() => 1;

        public long Generic<T>() => 1;

        public string Text(string s, int[] n) => s;

        public void WithContext(PerfContext perf) => perf.Measure(static () => 1);
    }
#pragma warning restore CA1822, CA1812
}
