using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Picollo.Measurement.Simulated;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Simulated counters judged against a stored baseline (docs/VERDICTS.md, "Simulated counters"), from tables of counts:
/// near-exact, within their rule's tolerance or four times the difference their recording measured between processes, in
/// the simulated machine's own entry, which any host with the same simulator and runtime is judged against.
/// </summary>
public sealed class SimulatedVerdictTests
{
    private static readonly SimulatorInfo Callgrind = new(
        "callgrind 3.19.0", "X64", ["avx", "avx2", "bmi1", "bmi2", "fma", "lzcnt", "popcnt", "sse4.2"], "10.0.12", false, false);

    private static readonly MachineFingerprint Simulated = MachineFingerprint.ForSimulator(Callgrind);

    // A simulated counter of 10 samples of 300 operations at perOperation each (the last sample's rounding aside).
    private static BaselineCounter Counter(string name, double perOperation, RecordingQuality? recording = null) =>
        BaselineCounter.FromResult(SyntheticResults.Counter(
            name, "events", CounterKind.Simulated, 300, Enumerable.Repeat((ulong)Math.Round(perOperation * 300), 10))) with
        {
            Recording = recording,
        };

    private static BaselineRecord SimulatedRecord(params BaselineCounter[] counters) => Record(counters) with { Simulator = Callgrind };

    private static CounterVerdict Judge(BaselineCounter baseline, BaselineCounter current, MachineFingerprint? host = null) =>
        BaselineComparer.Compare(
                new BaselineFile([new BaselineEntry(Simulated, SimulatedRecord(baseline))]), host ?? Epyc, SimulatedRecord(current))
            .ShouldHaveSingleItem();

    [Theory]
    [InlineData(3_325, 3_325, "Pass")]
    [InlineData(3_325, 3_327, "Pass")] // +0.06 %: inside ±0.1 %
    [InlineData(3_325, 3_358.25, "Regressed")] // +1 %
    [InlineData(3_325, 3_292, "Improved")] // -1 %
    public void Instructions_AreJudgedWithinATenthOfAPercent(double baseline, double current, string status)
    {
        CounterVerdict verdict = Judge(Counter(CounterNames.SimInstructions, baseline), Counter(CounterNames.SimInstructions, current));

        verdict.Status.ToString().ShouldBe(status);
        verdict.Mode.ShouldBe(VerdictMode.Exact);
        verdict.Tolerance.ShouldBe(0.001);
        verdict.EffectSize.ShouldBeNull();
        verdict.BaselineMachineId.ShouldBe(Simulated.Id);
    }

    [Fact]
    public void AOnePercentRise_ReadsAsARegression_WithTheToleranceItApplied()
    {
        CounterVerdict verdict = Judge(Counter(CounterNames.SimInstructions, 3_325), Counter(CounterNames.SimInstructions, 3_358.25));

        verdict.Text.ShouldBe("sim-instructions P50 +1.0% (3,325 → 3,358.25 events/op): regressed (simulated, within ±0.1%)");
    }

    [Fact]
    public void TheRecordedDifferenceBetweenProcesses_WidensTheTolerance_FourTimes()
    {
        // Recorded 0.05 % apart in two processes: ±0.2 % then, so +0.15 % passes, +0.3 % does not.
        var recording = new RecordingQuality(2, 0.0005, 0.002) { Processes = 2 };

        Judge(Counter(CounterNames.SimInstructions, 10_000, recording), Counter(CounterNames.SimInstructions, 10_015)).Status
            .ShouldBe(CounterVerdictStatus.Pass);
        CounterVerdict wider = Judge(Counter(CounterNames.SimInstructions, 10_000, recording), Counter(CounterNames.SimInstructions, 10_030));
        wider.Status.ShouldBe(CounterVerdictStatus.Regressed);
        wider.Tolerance!.Value.ShouldBe(0.002, 1e-12);
    }

    [Theory]
    [InlineData(17.0, 17.15, "Pass")] // +0.9 %: inside ±1 %
    [InlineData(17.0, 17.4, "Regressed")] // +2.4 %
    [InlineData(0.01, 0.05, "Pass")] // +400 %, but 0.04 misses per operation: under the 0.05 floor
    [InlineData(0.01, 0.1, "Regressed")]
    public void Misses_AreJudgedWithinOnePercent_AndAFloorOfAHundredthsPerOperation(double baseline, double current, string status)
    {
        Judge(Counter(CounterNames.SimBranchMisses, baseline), Counter(CounterNames.SimBranchMisses, current)).Status.ToString()
            .ShouldBe(status);
    }

    [Fact]
    public void AnotherHost_IsJudgedAgainstTheSimulatedEntry_WhereItsTimeHasNoBaseline()
    {
        BaselineCounter tsc = TscCounter(FloorRun(seed: 1));
        var file = new BaselineFile(
        [
            new BaselineEntry(Epyc, Record(tsc)),
            new BaselineEntry(Simulated, SimulatedRecord(Counter(CounterNames.SimInstructions, 3_325))),
        ]);

        IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(
            file, Xeon, SimulatedRecord(TscCounter(FloorRun(seed: 2)), Counter(CounterNames.SimInstructions, 3_325)));

        verdicts.Single(v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.NoBaseline);
        CounterVerdict simulated = verdicts.Single(v => v.Counter == CounterNames.SimInstructions);
        simulated.Status.ShouldBe(CounterVerdictStatus.Pass);
        simulated.BaselineMachineId.ShouldBe(Simulated.Id);
    }

    [Fact]
    public void AnotherRuntime_HasNoSimulatedBaseline_RatherThanAFalseRegression()
    {
        var file = new BaselineFile([new BaselineEntry(Simulated, SimulatedRecord(Counter(CounterNames.SimInstructions, 3_325)))]);
        BaselineRecord current = Record(Counter(CounterNames.SimInstructions, 3_400)) with { Simulator = Callgrind with { RuntimeVersion = "10.0.13" } };

        CounterVerdict verdict = BaselineComparer.Compare(file, Epyc, current).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.NoBaseline);
        verdict.Reason!.ShouldContain("different .NET runtime (10.0.12 vs 10.0.13)");
    }

    [Fact]
    public void AMeasurement_IsWrittenAsTheHostsEntryAndTheSimulatedMachines()
    {
        BaselineRecord record = SimulatedRecord(TscCounter(FloorRun(seed: 1)), Counter(CounterNames.SimInstructions, 3_325));

        IReadOnlyList<BaselineEntry> entries = BaselineEntry.Split(Epyc, record);

        entries.Select(static e => e.Machine.Id).ShouldBe([Epyc.Id, Simulated.Id]);
        entries[0].Record.Counters.Select(static c => c.Name).ShouldBe(["tsc"]);
        entries[1].Record.Counters.Select(static c => c.Name).ShouldBe([CounterNames.SimInstructions]);
        BaselineEntry.Split(Epyc, Record(TscCounter(FloorRun(seed: 1)))).ShouldHaveSingleItem().Machine.ShouldBe(Epyc);
    }

    [Fact]
    public void TheStore_WritesBothEntries_AndAnotherHostsUpdateKeepsTheSimulatedOne()
    {
        using var folder = new TempDirectory();
        string path = Path.Combine(folder.Path, "WordsPerf.Count.perf.json");
        var store = new BaselineStore(new BaselineStoreOptions { UpdateBaselines = true });

        store.Check(path, Epyc, SimulatedRecord(TscCounter(FloorRun(seed: 1)), Counter(CounterNames.SimInstructions, 3_325)))
            .Outcome.ShouldBe(BaselineOutcome.Updated);
        store.Check(path, Xeon, SimulatedRecord(TscCounter(FloorRun(seed: 2)), Counter(CounterNames.SimInstructions, 3_325)))
            .Outcome.ShouldBe(BaselineOutcome.Updated);

        BaselineFile file = BaselineJson.Parse(File.ReadAllText(path), path);
        file.Entries.Select(static e => e.Machine.Id).ShouldBe([Epyc.Id, Xeon.Id, Simulated.Id], ignoreOrder: true);
        file.Find(Simulated.Id)!.Machine.IsSimulated.ShouldBeTrue();
        file.Find(Simulated.Id)!.Record.Find(CounterNames.SimInstructions)!.PerOperation.P50.ShouldBe(3_325);
    }
}
