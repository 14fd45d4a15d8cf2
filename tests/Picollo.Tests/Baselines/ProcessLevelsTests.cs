using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Tests.Assertions;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Code whose speed is fixed per process (docs/VERDICTS.md, "Code with two speeds per process"): a baseline entry holding
/// the levels recorded in several processes judges each measurement against the nearest, and
/// <c>PICOLLO_UPDATE_BASELINES=add</c> records them, in real baseline files.
/// </summary>
public sealed class ProcessLevelsTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    private string BaselinePath => _dir.Combine("WordsPerf.Count.perf.json");

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void AnEntryWithTwoLevels_JudgesEachProcessAgainstTheNearer()
    {
        // Words.Count measured about 160 ticks per call in some fresh processes and 185 in others (+15.6 %).
        var entry = new BaselineEntry(Epyc, Tsc(160, seed: 1)) { Levels = [Tsc(185, seed: 2)] };
        var file = new BaselineFile([entry]);

        Judge(new BaselineFile([new BaselineEntry(Epyc, Tsc(160, seed: 1))]), Tsc(186, seed: 3)).Status
            .ShouldBe(CounterVerdictStatus.Regressed, "a baseline of one level fails every process at the other");

        CounterVerdict slowProcess = Judge(file, Tsc(186, seed: 3));
        slowProcess.Status.ShouldBe(CounterVerdictStatus.Pass);
        slowProcess.ProcessLevel.ShouldBe(2);
        slowProcess.BaselineValue.ShouldBe(entry.Levels[0].Find("tsc")!.PerOperation.P10, "compared with the slow level's floor");
        slowProcess.Text.ShouldEndWith(", against process level 2 of 2: pass");

        CounterVerdict fastProcess = Judge(file, Tsc(161, seed: 4));
        fastProcess.Status.ShouldBe(CounterVerdictStatus.Pass);
        fastProcess.ProcessLevel.ShouldBe(1);

        // +30 % on either level is still a regression: against the nearer level it is +12.4 % and +30 %.
        Judge(file, Tsc(208, seed: 5)).Status.ShouldBe(CounterVerdictStatus.Regressed);
        Judge(file, Tsc(240, seed: 6)).Status.ShouldBe(CounterVerdictStatus.Regressed);
    }

    [Fact]
    public void UpdateModeAdd_RecordsALevelPerProcessSpeed_AndMatchesOnesItHas()
    {
        BaselineStore add = Store("add");
        add.IsUpdateMode.ShouldBeTrue();

        add.Check(BaselinePath, Epyc, Tsc(160, seed: 1)).Message.ShouldEndWith(": recorded as its first process level (PICOLLO_UPDATE_BASELINES=add or AddProcessLevels is on).");
        BaselineCheckResult second = add.Check(BaselinePath, Epyc, Tsc(185, seed: 2));
        second.Outcome.ShouldBe(BaselineOutcome.Updated);
        second.Message.ShouldContain(": added as process level 2 of 2 (");
        BaselineCheckResult third = add.Check(BaselinePath, Epyc, Tsc(161, seed: 3));
        third.Message.ShouldContain(": not extended: its time matches process level 1 of 2 (tsc P10 ");

        BaselineEntry written = BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!;
        written.Record.Find("tsc")!.PerOperation.P10.ShouldBe(158, 1, "P10 of a 1 % spread around 160");
        written.Levels.ShouldHaveSingleItem().Find("tsc")!.PerOperation.P10.ShouldBe(182.8, 1);

        // Plain update mode records the entry anew: its levels go with the old recording.
        Store("1").Check(BaselinePath, Epyc, Tsc(170, seed: 4));
        BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!.Levels.ShouldBeEmpty();
    }

    [Fact]
    public void UpdateModeAdd_ReplacesTheEntry_WhenAnExactCounterChanged()
    {
        Store("add").Check(BaselinePath, Epyc, Tsc(160, seed: 1, bytes: 0));
        Store("add").Check(BaselinePath, Epyc, Tsc(185, seed: 2, bytes: 0));

        BaselineCheckResult changed = Store("add").Check(BaselinePath, Epyc, Tsc(185, seed: 3, bytes: 24));

        changed.Message.ShouldContain(": replaced, not extended: allocated-bytes P50 (0 → 24 bytes/op): regressed (exact); an exact counter changed");
        changed.Message.ShouldContain("the recorded 2 process levels no longer apply");
        BaselineEntry written = BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!;
        written.Levels.ShouldBeEmpty();
        written.Record.Find(CounterNames.AllocatedBytes)!.PerOperation.P50.ShouldBe(24);
    }

    [Fact]
    public void UpdateModeAdd_StopsAtFourLevels()
    {
        foreach ((double ticks, int seed) in new[] { (100.0, 1), (130.0, 2), (170.0, 3), (220.0, 4) })
            Store("add").Check(BaselinePath, Epyc, Tsc(ticks, seed));

        BaselineCheckResult fifth = Store("add").Check(BaselinePath, Epyc, Tsc(290, seed: 5));

        fifth.Message.ShouldContain(": not extended: it holds 4 process levels already; record it again with PICOLLO_UPDATE_BASELINES=1 to start over");
        BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!.Levels.Count.ShouldBe(3);
    }

    [Fact]
    public void Levels_RoundTripThroughTheFile_AndALevelWithAMachineIsRejectedWithItsPath()
    {
        var entry = new BaselineEntry(Epyc, Tsc(160, seed: 1)) { Levels = [Tsc(185, seed: 2)] };
        string json = new BaselineFile([entry]).ToJson();
        json.ShouldContain("\"levels\": [");

        BaselineEntry read = BaselineFile.Parse(json).Find(Epyc.Id)!;
        read.Levels.ShouldHaveSingleItem().Find("tsc")!.PerOperation.P10.ShouldBe(entry.Levels[0].Find("tsc")!.PerOperation.P10);
        new BaselineFile([read]).ToJson().ShouldBe(json);

        // A level copied from another entry, machine and all: rejected with the JSON path, not read as this machine's.
        string machineJson = json[json.IndexOf("\"machine\": {", StringComparison.Ordinal)..];
        machineJson = machineJson[..(machineJson.IndexOf('}') + 1)];
        string edited = json.Replace("\"levels\": [\n        {", "\"levels\": [\n        {" + machineJson + ",", StringComparison.Ordinal);
        edited.ShouldNotBe(json);
        var ex = Should.Throw<BaselineFormatException>(() => BaselineFile.Parse(edited, "WordsPerf.Count.perf.json"));
        ex.Message.ShouldContain($"$.entries['{Epyc.Id}'].levels[0]");
        ex.Message.ShouldContain("a process level has no machine and no levels of its own");
    }

    [Fact]
    public void AMeasurementBetweenTwoLevels_IsAChange_NotAnImprovementOfTheSlowerLevel()
    {
        // The samples' Words.Count on another host: 103 and 179 ticks. 140 is −22 % from 179 but +36 % from 103: the code
        // changed, and a level that finds it "improved" must not hide that it regressed from the other.
        var file = new BaselineFile([new BaselineEntry(Epyc, Tsc(103, seed: 1)) { Levels = [Tsc(179, seed: 2)] }]);

        CounterVerdict between = Judge(file, Tsc(140, seed: 3));
        between.Status.ShouldBe(CounterVerdictStatus.Regressed);
        between.ProcessLevel.ShouldBe(1);
        Judge(file, Tsc(176, seed: 4)).Status.ShouldBe(CounterVerdictStatus.Pass, "within the threshold of the slower level: its own speed");
        Judge(file, Tsc(80, seed: 5)).Status.ShouldBe(CounterVerdictStatus.Improved, "faster than both levels");
    }

    [Fact]
    public void ALevelWhoseTimeCannotBeJudged_IsNeverNearest_AndIsNotAdded()
    {
        // Five samples: too few to bound even the median, so the level's time cannot be judged.
        var file = new BaselineFile([new BaselineEntry(Epyc, Tsc(160, seed: 1)) { Levels = [Tsc(160, seed: 2, samples: 5)] }]);
        CounterVerdict slower = Judge(file, Tsc(240, seed: 3));
        slower.Status.ShouldBe(CounterVerdictStatus.Regressed);
        slower.ProcessLevel.ShouldBe(1);

        Store("add").Check(BaselinePath, Epyc, Tsc(160, seed: 1));
        Store("add").Check(BaselinePath, Epyc, Tsc(185, seed: 4, samples: 5)).Message
            .ShouldContain(": not extended: tsc: inconclusive: 5 samples are too few to bound even the median");
        BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!.Levels.ShouldBeEmpty();
    }

    [Fact]
    public void UpdateModeAdd_NeedsTheEntrysCounters()
    {
        Store("add").Check(BaselinePath, Epyc, Tsc(160, seed: 1));

        BaselineCheckResult other = Store("add").Check(BaselinePath, Epyc, Tsc(185, seed: 2, bytes: 0));

        other.Message.ShouldContain(": not extended: it measured allocated-bytes, tsc, the entry holds tsc; its process levels need the same counters");
        BaselineStore.Read(BaselinePath)!.Find(Epyc.Id)!.Levels.ShouldBeEmpty();
    }

    [Fact]
    public void UpdateModeAdd_ClearsThePendingReceivedEntry_OfAProcessAtTheOtherLevel()
    {
        Store("1").Check(BaselinePath, Epyc, Tsc(160, seed: 1));
        string received = BaselineLocator.GetReceivedPath(BaselinePath);
        Store(null).Check(BaselinePath, Epyc, Tsc(185, seed: 2)).Outcome.ShouldBe(BaselineOutcome.Fail, "one level: the slow process fails");
        File.Exists(received).ShouldBeTrue();

        Store("add").Check(BaselinePath, Epyc, Tsc(161, seed: 3)).Message.ShouldContain("not extended: its time matches process level 1 of 1");

        File.Exists(received).ShouldBeFalse("accepting that failing run later would replace the levels with it");
    }

    [Fact]
    public void AReceivedFile_SaysThatAcceptingItDropsTheLevels()
    {
        WriteBaseline(new BaselineEntry(Epyc, Tsc(160, seed: 1)) { Levels = [Tsc(185, seed: 2)] });

        BaselineCheckResult improved = Store(null).Check(BaselinePath, Epyc, Tsc(130, seed: 3));

        improved.Outcome.ShouldBe(BaselineOutcome.Notice);
        improved.Message.ShouldStartWith("Improved: tsc P10 ");
        improved.Message.ShouldEndWith("Accepting it replaces this machine's 2 process levels with this one run; record them again with PICOLLO_UPDATE_BASELINES=add if the code still has them.");
    }

    [Fact]
    public void AnExplicitUpdateOfOne_WinsOverTheAddOption()
    {
        var options = new BaselineStoreOptions { AddProcessLevels = true, GetEnvironmentVariable = static _ => "1" };
        new BaselineStore(options).IsAddingProcessLevels.ShouldBeFalse();
        new BaselineStore(options with { GetEnvironmentVariable = static _ => null }).IsAddingProcessLevels.ShouldBeTrue();
    }

    [Fact]
    public void TheRecordedCounterOfAVerdict_IsTheLevelsItWasJudgedAgainst()
    {
        var entry = new BaselineEntry(Epyc, Tsc(160, seed: 1)) { Levels = [Tsc(185, seed: 2)] };
        CounterVerdict verdict = Judge(new BaselineFile([entry]), Tsc(240, seed: 3));

        verdict.ProcessLevel.ShouldBe(2);
        entry.CounterFor(verdict)!.PerOperation.P10.ShouldBe(entry.Levels[0].Find("tsc")!.PerOperation.P10, "the report's diff table and the failure message show what was compared");
    }

    private static CounterVerdict Judge(BaselineFile file, BaselineRecord current) =>
        BaselineComparer.Compare(file, Epyc, current).Single(static v => v.Counter == "tsc");

    private void WriteBaseline(BaselineEntry entry) => File.WriteAllText(BaselinePath, new BaselineFile([entry]).ToJson());

    private static BaselineStore Store(string? update) => new(new BaselineStoreOptions
    {
        GetEnvironmentVariable = name => name == BaselineStoreOptions.UpdateVariable ? update : null,
    });

    // A run of 1,000 operations per sample at `ticks` per operation with a 1 % spread, and its allocations when given.
    private static BaselineRecord Tsc(double ticks, int seed, int? bytes = null, int samples = 1_000)
    {
        BaselineCounter tsc = TscCounter(FloorRun(seed, samples, scale: ticks / 200));
        return bytes is { } b
            ? Record(tsc, BaselineCounter.FromResult(SyntheticResults.Counter(CounterNames.AllocatedBytes, "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat((ulong)b * 1_000, samples))))
            : Record(tsc);
    }
}
