using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Judgements that measure the body in fresh processes (issue 24): a recording learns the levels of other processes, a
/// time regression must show in fresh processes too, a process that cannot run is named, and the worker's side writes
/// what it measured and nothing else. A scripted measurer stands for the adapters' fresh processes (the real ones run in
/// the packaging tests); the records are real: synthetic results of 200 ticks per operation times a scale.
/// </summary>
public sealed class FreshProcessJudgementTests
{
    [Fact]
    public void UpdateMode_RecordsTheLevelsOfFreshProcesses_KeepsTheFastest_AndSaysTheSpreadIsWide()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.3, 1.35], [0.95, 1.0], [1.1, 1.2]);

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(5, "a body that took levels: two more processes, in which no new level showed");
        fresh.Asked.ShouldAllBe(static path => path.EndsWith("T.M.perf.json", StringComparison.Ordinal));
        BaselineCounter tsc = BaselineStore.Read(temp.Combine("T.M.perf.json"))!.Entries.ShouldHaveSingleItem().Record.Find("tsc")!;
        tsc.PerOperation.P10.ShouldBe(199.9 * 0.95, 0.2, "the fastest process's level is the baseline");
        tsc.Recording!.Processes.ShouldBe(6);
        tsc.Recording.Spread.ShouldBe(1.3 / 0.95, 0.01, "each process's level is its faster measurement");
        host.Output[^1].ShouldContain("Recorded across 6 processes (this one and 5 fresh, 2 measurements each): tsc levels spread 1.368×; the fastest level is the baseline.");
        host.Notices.ShouldContain(static n => n.Message.StartsWith("tsc: its floor ran at levels up to 1.37× apart in 6 processes of this machine, so time on this machine detects ≥ +", StringComparison.Ordinal));

        // What a user reads after recording, as a reviewed stored expectation: the note of the levels and the notices (but
        // the one naming the file and this machine).
        string note = host.Output[^1].Split('\n').Single(static line => line.Contains("Recorded across", StringComparison.Ordinal));
        string[] notices = [.. host.Notices.Select(static n => n.Message).Where(static m => !m.StartsWith("Baseline updated: ", StringComparison.Ordinal))];
        Approvals.Verify(string.Join("\n\n", [note.Trim(), .. notices]) + "\n", "Recording.Levels");
    }

    [Fact]
    public void ARecordingThatKeptAFreshProcessAtTheFastLevel_DoesNotSayItWasRecordedAtASlowOne()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Func<string, string?> environment = name =>
            name == MachineSpeedMemory.FolderVariable ? temp.Combine("cache") : TestEnvironment.Local(temp)(name);
        MachineSpeedMemory memory = MachineSpeedMemory.Load(MachineFingerprint.Current.Id, environment);
        for (int i = 0; i < JudgementPolicy.Default.SpeedMemoryMinimumReadings; i++)
            memory = memory.Remember(BaselineRecord.FromResult(Branchy(1.0, 600)));

        // This process stays in the host's slower branchy state (900 ns against 600 remembered) for every measurement; the
        // fresh processes run at the fast level, and the entry keeps it.
        PerfResult Slower() => Branchy(1.0, 900).WithRemeasure(Slower);
        var fresh = new ScriptedProcesses([1.0, 1.0]) { Branch = { [0] = 600, [1] = 600, [2] = 600 } };
        Slower().ShouldNotRegress(
            options: Options(temp, fresh) with { UpdateBaselines = true, GetEnvironmentVariable = environment },
            callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        BaselineStore.Read(temp.Combine("T.M.perf.json"))!.Entries.Single().Record.BranchSpeed.ShouldBe(600);
        host.Notices.ShouldNotContain(static n => n.Message.StartsWith("Recorded while", StringComparison.Ordinal));

        // Where every process stays in that state, the entry is at it, and the recording says so.
        using var again = new TempDirectory();
        Func<string, string?> sameCache = name =>
            name == MachineSpeedMemory.FolderVariable ? temp.Combine("cache") : TestEnvironment.Local(again)(name);
        var slowToo = new ScriptedProcesses([1.0, 1.0]) { Branch = { [0] = 900, [1] = 900, [2] = 900 } };
        Slower().ShouldNotRegress(
            options: Options(again, slowToo) with { UpdateBaselines = true, GetEnvironmentVariable = sameCache },
            callerFilePath: again.Combine("T.cs"), testMethod: "M");
        host.Notices.ShouldContain(static n => n.Message.StartsWith(
            "Recorded while the host ran branchy code 50% slower than its fastest remembered level", StringComparison.Ordinal));
    }

    [Fact]
    public void AFreshProcessLeftOut_IsNamed_AndTheCountSaidIsTheCountStored()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.1, 1.1], [1.5, 1.5], [1.0, 1.0]);
        fresh.Busy.Add(1);

        RecordWithFreshProcesses(temp, fresh);

        RecordedTsc(temp).Recording!.Processes.ShouldBe(5, "the busy process's level did not join; two more processes showed no new level");
        host.Output[^1].ShouldContain("Recorded across 5 of 6 processes (this one and 5 fresh, 2 measurements each): tsc levels spread 1.1×; the fastest level is the baseline. Left out: process 3: other processes used ");
    }

    [Fact]
    public void WhenNoFreshProcessJoins_MoreAreStarted_UntilTwoProcessesAgree()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.2, 1.2], [1.2, 1.2], [1.2, 1.2], [1.1, 1.1]);
        fresh.Busy.UnionWith([0, 1, 2]);

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(6, "one more process, the first quiet one joined, and two more for the levels it showed (the cap)");
        RecordingQuality quality = RecordedTsc(temp).Recording!;
        quality.Processes.ShouldBe(4);
        quality.Spread.ShouldBe(1.1, 0.01, "the spread the agreeing processes showed");
        host.Output[^1].ShouldContain("Recorded across 4 of 7 processes (this one and 6 fresh, 2 measurements each): tsc levels spread 1.1×");
        host.Notices.ShouldNotContain(static n => n.Message.StartsWith("Recorded with no spread", StringComparison.Ordinal));
    }

    [Fact]
    public void ABodyThatTookLevels_IsMeasuredInMoreProcesses_AndALevelTheyShowJoinsTheSpread()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.0, 1.0], [1.25, 1.25], [1.0, 1.0], [1.6, 1.6], [1.0, 1.0]);

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(6, "three, then a new slowest level in the fourth, then the cap of three more");
        RecordingQuality quality = RecordedTsc(temp).Recording!;
        quality.Spread.ShouldBe(1.6, 0.01, "the level only a later process showed");
        quality.Processes.ShouldBe(7);
    }

    [Fact]
    public void AProcessLeftOut_DoesNotSettleTheLevels_TheRecordingGoesOnToTheCap()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.0, 1.0], [1.25, 1.25], [1.0, 1.0], [1.0, 1.0]);
        fresh.Busy.UnionWith([3, 4]);

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(6, "two busy processes showed nothing either way; the third joined, and the cap ends it");
        RecordedTsc(temp).Recording!.Processes.ShouldBe(5);
    }

    [Fact]
    public void ABodyWithOneLevel_IsMeasuredInTheRecordingsProcessesOnly()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.0, 1.0], [1.01, 1.01], [1.0, 1.0]);

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(3, "no spread: no process more");
        RecordedTsc(temp).Recording!.Spread.ShouldBe(1);
    }

    [Fact]
    public void WhenNoFreshProcessEverJoins_TheRecordingStopsAfterAFewMore_AndSaysItKnowsNoSpread()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.2, 1.2]);
        fresh.Busy.UnionWith(Enumerable.Range(0, 10));

        RecordWithFreshProcesses(temp, fresh);

        fresh.Started.ShouldBe(6, "the three of the recording and three more, then it stops");
        RecordedTsc(temp).Recording!.Processes.ShouldBe(1);
        host.Notices.ShouldContain(static n => n.Message.StartsWith("Recorded with no spread: only this process's level could join in 7 processes", StringComparison.Ordinal));
    }

    [Fact]
    public void AFreshProcessThatCannotRun_IsNamed_AndTheRecordingGoesOnWithTheOthers()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.1, 1.1], null, [1.0, 1.0]);

        RecordWithFreshProcesses(temp, fresh);

        RecordedTsc(temp).Recording!.Processes.ShouldBe(3);
        host.Notices.ShouldContain(static n => n.Message == "Recorded in 3 of 4 processes: the scripted process 2 crashed.");
    }

    [Fact]
    public void AReceivedFile_IsRecordedInThisProcessOnly_AndUpdateModeAcrossProcesses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        var fresh = new ScriptedProcesses([1.3, 1.3]);

        Runs(1.0).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        fresh.Started.ShouldBe(0, "a suite's first run would pay seconds per test for files nobody may accept");
        BaselineStore.Read(temp.Combine("T.M.received.perf.json"))!.Entries.Single().Record.Find("tsc")!.Recording!.Processes.ShouldBe(1);
    }

    [Fact]
    public void ATimeRegressionOfThisProcessOnly_PassesWhenAFreshProcessRunsAtARecordedLevel()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // This process sits at a level the recording did not see (+40 %, twice); the second fresh process is back.
        var fresh = new ScriptedProcesses([1.4, 1.45], [1.0, 1.02]);
        Runs(1.4, 1.41).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        fresh.Started.ShouldBe(2, "the first fresh process confirmed, the second did not");
        string notices = string.Join("\n", host.Notices.Select(static n => n.Message));
        host.Notices.ShouldContain(static n => n.Message.StartsWith("Not failing on tsc: this process regressed twice, but fresh process 2 did not (tsc P10 +40.0%", StringComparison.Ordinal)
            && n.Message.Contains("; then tsc P10 0.0%", StringComparison.Ordinal)
            && n.Message.EndsWith("extend the baseline's levels from unchanged code (PICOLLO_UPDATE_BASELINES=add).", StringComparison.Ordinal), notices);
    }

    [Fact]
    public void ATimeRegressionThatEveryFreshProcessShows_Fails_AndTheMessageSaysSo()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        var fresh = new ScriptedProcesses([1.5, 1.5], [1.52, 1.5], [1.49, 1.6]);
        string message = Should.Throw<PerfAssertionException>(() =>
            Runs(1.5, 1.5).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        fresh.Started.ShouldBe(3);
        message.ShouldContain("Confirmed by a second measurement: tsc P10 +50.0%");
        message.ShouldContain(" 3 fresh processes confirmed it too.");
    }

    [Fact]
    public void AJudgementThatMeasuresAgain_WritesTheReceivedFileOnce_AtItsEnd_WithTheMeasurementItJudged()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +50 % here, then +40 % confirming it; fresh processes are asked while nothing of this judgement is written yet.
        var fresh = new ScriptedProcesses([1.5, 1.5], [1.52, 1.5], [1.49, 1.6]);
        Should.Throw<PerfAssertionException>(() =>
            Runs(1.5, 1.4).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.FilesWhenAsked.Count.ShouldBe(3);
        fresh.FilesWhenAsked.ShouldAllBe(static files => files.SequenceEqual(new[] { "T.M.perf.json" }));
        BaselineCounter received = BaselineStore.Read(temp.Combine("T.M.received.perf.json"))!.Entries.Single().Record.Find("tsc")!;
        BaselineCounter recorded = RecordedTsc(temp);
        (received.PerOperation.P10 / recorded.PerOperation.P10).ShouldBe(1.4, 0.01, "the received entry is the measurement judged last, the confirming one");
    }

    [Fact]
    public void AFreshProcess_IsJudgedOnTheFasterOfItsMeasurements()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +50 % here, twice; each fresh process measures +50 % first (its start, a level of its own) and then its level: the
        // faster of the two is the process's (JudgementPolicy.MeasurementsPerProcess), which clears the regression.
        var fresh = new ScriptedProcesses([1.5, 1.0]);
        Should.NotThrow(() =>
            Runs(1.5, 1.5).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(1);
    }

    [Fact]
    public void AFreshProcessThatPassesOnlyWithinItsOwnWiderAllowance_DoesNotUnconfirm()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +40 % here, twice; the first fresh process measures +10 % beside a busy machine (allowed +15 % there): it cannot
        // tell. The next two regress.
        var fresh = new ScriptedProcesses([1.1, 1.1], [1.4, 1.4], [1.4, 1.45]) { Busy = { 0 } };
        string message = Should.Throw<PerfAssertionException>(() =>
            Runs(1.4, 1.4).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        fresh.Started.ShouldBe(3);
        message.ShouldContain(" 2 of 3 fresh processes confirmed it too, the others measured in conditions that allowed more and could not tell.");
    }

    [Fact]
    public void AMeasurementAfterTheHostsSlowState_KeepsTheEarlierOnesBranchyPart()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // The first measurement in the host's slow branchy state (+60 %, allowed); measured again with the reference back at
        // its fast speed, the body is still +30 %: the host's state lingers in the body, and the verdict allows what the
        // first measurement was allowed. Before, the second measurement failed unchanged code.
        PerfResult measured = InTurn(Branchy(1.6, 1_100), Branchy(1.3, 705), Branchy(1.3, 700));
        Should.NotThrow(() => measured.ShouldNotRegress(options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        host.Output[^1].ShouldContain("the host's branchy state of an earlier measurement of this test, which may linger, up to +");
    }

    [Fact]
    public void AConfirmingMeasurement_IsJudgedInItsOwnLoad_NotInTheBusyAllowanceOfTheFirst()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +40 % beside other processes keeping every other core busy (allowed +15 %): regressed. The confirming measurement,
        // on a quiet machine, reads +20 %: beyond its own band, inside the first one's. Only the host's branchy state lingers
        // in a body; other processes' load is each measurement's own. Before, the first band was kept and the +20 % passed
        // (bench verdicts, process / allocating: +42 % inside an allocation bound of +12 % kept from the first measurement).
        double busy = Math.Max(1, Environment.ProcessorCount - 1);
        PerfResult measured = InTurn(Loaded(1.4, busy), Loaded(1.2, 0));
        string message = Should.Throw<PerfAssertionException>(() =>
            measured.ShouldNotRegress(options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        message.ShouldContain("tsc P10 +20.0%");
        message.ShouldNotContain("earlier measurement");
    }

    [Fact]
    public void APassInsideWhatLingersOfTheHostsSlowState_IsStillAPassOnThatState_AndIsAskedOfFreshProcesses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // A 2x body: +120 % in the host's slow branchy state (the reference at 1,100 ns allows +86 %), so measured again; with
        // the reference back at its speed it reads +100 %, inside the band kept from the first measurement, which was all the
        // branchy state's. Before, that band carried no branchy share, the pass stood and no fresh process was asked (bench
        // levels, idle / count64). Fresh processes read the 2x as it is and fail it.
        var fresh = new ScriptedProcesses([2.0, 2.0]);
        PerfResult measured = InTurn(Branchy(2.2, 1_100), Branchy(2.0, 705), Branchy(2.0, 700));
        string message = Should.Throw<PerfAssertionException>(() =>
            measured.ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        fresh.Started.ShouldBe(2);
        message.ShouldContain("the host's branchy state of an earlier measurement of this test, which may linger, up to +");
        message.ShouldContain("Regressed in fresh processes: this process passed only on the host's slow branchy state (tsc P10 +100.0%");
    }

    [Fact]
    public void AFreshProcess_IsJudgedInItsOwnConditions_NotInTheWideBandOfThisProcessesSlowHostState()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // A 2x body measured twice in the host's slow branchy state (the reference +86 %): +250 %, beyond the band of +100 %
        // that state allows. The fresh processes run with the host back at its speed and read the 2x as it is: allowed this
        // process's band, they passed it and cleared the regression (bench levels, idle / count64).
        var fresh = new ScriptedProcesses([2.0, 2.0]);
        int next = 0;
        PerfResult Next() => next++ < 2 ? Branchy(3.5, 1_300).WithRemeasure(Next) : throw new InvalidOperationException("measured twice only");
        string message = Should.Throw<PerfAssertionException>(() =>
            Next().ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        fresh.Started.ShouldBe(3);
        message.ShouldContain("Confirmed by a second measurement: tsc P10 +250.0%");
        message.ShouldContain(" 3 fresh processes confirmed it too.");
    }

    [Fact]
    public void APassOnlyWithinTheHostsSlowBranchyState_IsAskedOfFreshProcesses_AndFailsWhenTwoRegress()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // A body 1.8x slower in a process that drew the host's slow branchy state (the reference +86 %): +80 % passes inside the +100 %
        // that state allows. Fresh processes draw their state anew, and at the recorded one they read it as it is: two regress.
        var fresh = new ScriptedProcesses([1.8, 1.8]);
        string message = Should.Throw<PerfAssertionException>(() => Slow(1.8).ShouldNotRegress(
            options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        fresh.Started.ShouldBe(2);
        message.ShouldContain("tsc P10 +80.0%");
        message.ShouldContain("Regressed in fresh processes: this process passed only on the host's slow branchy state (tsc P10 +80.0%");
        message.ShouldContain("judged in their own conditions, 2 fresh processes regressed beyond the recording (tsc P10 +80.0%");
    }

    [Fact]
    public void AFailureFromFreshProcesses_ShowsTheirNumbersInTheDiffTable_NotThisProcessesPass()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // This process passed +80 % on the slow branchy state; the fresh processes read +100 %, and the failure says so. The
        // diff table beside that verdict line shows the fresh process's histogram (mean 416 ticks/op), not this one's (374.4).
        var fresh = new ScriptedProcesses([2.0, 2.0]);
        string message = Should.Throw<PerfAssertionException>(() => Slow(1.8).ShouldNotRegress(
            options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;

        message.ShouldContain("tsc P10 +100.0%");
        string table = message[message.IndexOf("| Percentile", StringComparison.Ordinal)..];
        table.ShouldContain("| Mean:");
        table.ShouldContain("416");
        table.ShouldNotContain("374.4");
    }

    [Fact]
    public void APassOnlyWithinTheHostsSlowBranchyState_NeedsTwoFreshRegressions_WhateverTheirSize_AskingUpToFive()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // One fresh regression twice beyond its band, then a fresh process at the recorded speed: a level the recording
        // missed, not a regression; the pass stands.
        var missed = new ScriptedProcesses([2.2, 2.2], [1.0, 1.0]);
        Should.NotThrow(() => Slow(1.8).ShouldNotRegress(options: Options(temp, missed), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));
        missed.Started.ShouldBe(2);

        // A regression, three that drew the slow state too and cannot tell, then a second regression: asked up to five.
        var slowStates = new ScriptedProcesses([1.8, 1.8]) { Branch = { [1] = 1_300, [2] = 1_300, [3] = 1_300 } };
        string message = Should.Throw<PerfAssertionException>(() => Slow(1.8).ShouldNotRegress(
            options: Options(temp, slowStates), callerFilePath: temp.Combine("T.cs"), testMethod: "M")).Message;
        slowStates.Started.ShouldBe(5);
        message.ShouldContain("judged in their own conditions, 2 of 5 fresh processes regressed beyond the recording, the others did not (");
    }

    [Fact]
    public void APassOnlyWithinTheHostsSlowBranchyState_Stands_WhenAFreshProcessPassesItInNarrowerConditions()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // Unchanged code that follows the slow state: +50 % here, at its recorded speed in a fresh process.
        var fresh = new ScriptedProcesses([1.0, 1.01]);
        Should.NotThrow(() => Slow(1.5).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(1);
        host.Output[^1].ShouldContain("which a process draws at its start: measured in a fresh process, which passed it without that bound (tsc P10 0.0%");
    }

    [Fact]
    public void APassOnlyWithinTheHostsSlowBranchyState_PassesSayingSo_WhenEveryFreshProcessAllowsAsMuch()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        var fresh = new ScriptedProcesses([2.0, 2.0]) { Branch = { [0] = 1_300, [1] = 1_300, [2] = 1_300 } };
        Should.NotThrow(() => Slow(2.0).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(3);
        host.Output[^1].ShouldContain("measured in 3 fresh processes, which did not settle it: none passed it without that bound, and fewer than two regressed (tsc P10 +100.0%");
    }

    [Fact]
    public void AFreshPassInABandALittleNarrower_ButStillOnTheBranchyState_CannotTell()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +70 % with the reference at 1,100 ns (allowed +86 %); every fresh process reads the same with it at 1,050 ns (allowed
        // +73 %): narrower, but still passing only on the branchy state. A first version cleared on such a pass, and a 2x word
        // count passed silently (bench levels, idle / count64, 6 of 10).
        var fresh = new ScriptedProcesses([1.7, 1.7]) { Branch = { [0] = 1_050, [1] = 1_050, [2] = 1_050 } };
        PerfResult Here() => Branchy(1.7, 1_100).WithRemeasure(Here);
        Should.NotThrow(() => Here().ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(3, "none of them could tell");
        host.Output[^1].ShouldContain("which did not settle it: none passed it without that bound");
    }

    [Fact]
    public void APassWithinTheRecordedSpread_IsNotAskedOfFreshProcesses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +5 % in the slow state: a pass the recording alone allows (below the 8 % threshold), which costs no fresh process.
        var fresh = new ScriptedProcesses([2.0, 2.0]);
        Should.NotThrow(() => Slow(1.05).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(0);
    }

    [Fact]
    public void APassOnlyWithinABusyMachinesBand_IsNotAskedOfFreshProcesses_TheyMeetTheSameNeighbour()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +12 % beside a process that keeps the other core busy: inside the +15 % that allows, beyond the recording.
        var fresh = new ScriptedProcesses([1.3, 1.3]);
        PerfResult Busy()
        {
            PerfResult result = SyntheticResults.Result(Tsc(1.12));
            return new PerfResult([.. result.Counters], result.Options, result.Run with { OtherProcessesCores = 1.0 }).WithRemeasure(Busy);
        }

        Should.NotThrow(() => Busy().ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(0);
        host.Output[^1].ShouldContain("other processes used 1.00 of");
    }

    [Fact]
    public void AFreshProcessInAWiderBand_ClearsTheRegression_WhenItsChangeLiesWithinThisProcessesBand()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Branchy(1.0, 700).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        // +50 % twice at a level the recording did not see; the fresh process drew the host's slow branchy state (a band of
        // +100 %) and ran the body at its recorded speed: this process's band would have passed it too, so it tells.
        var fresh = new ScriptedProcesses([1.01, 1.01]) { Branch = { [0] = 1_300 } };
        int next = 0;
        PerfResult Next() => next++ < 2 ? Branchy(1.5, 700).WithRemeasure(Next) : throw new InvalidOperationException("measured twice only");
        Should.NotThrow(() => Next().ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        fresh.Started.ShouldBe(1);
        host.Notices.ShouldContain(static n => n.Message.StartsWith("Not failing on tsc: this process regressed twice, but a fresh process did not", StringComparison.Ordinal));
    }

    [Fact]
    public void WhenNoFreshProcessCanRun_TheTwoMeasurementsOfThisProcessDecide()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        var fresh = new ScriptedProcesses([null]);
        Should.Throw<PerfAssertionException>(() => Runs(1.5, 1.5).ShouldNotRegress(options: Options(temp, fresh), callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        host.Output[^1].ShouldContain("A fresh process could not measure it to confirm: the scripted process 1 crashed.");
    }

    [Fact]
    public void AWorker_MeasuresTheBaselineItWasStartedFor_WritesEachMeasurement_AndNothingElse()
    {
        using var temp = new TempDirectory();
        string prefix = temp.Combine("out", "measurement");
        (_, BaselineStoreOptions options) = Worker(temp, prefix);

        BaselineJudgement other = BaselineJudge.Judge(Runs(1.0), temp.Combine("T.cs"), "T", "Other", null, options);
        other.Outcome.ShouldBe(BaselineOutcome.NotJudged);
        FreshProcessWorker.Read(prefix).ShouldBeEmpty("another baseline of the same test measures nothing more");

        BaselineJudgement measured = BaselineJudge.Judge(Runs(1.0, 1.2), temp.Combine("T.cs"), "T", "M", null, options);

        measured.Outcome.ShouldBe(BaselineOutcome.NotJudged);
        IReadOnlyList<BaselineRecord> records = FreshProcessWorker.Read(prefix);
        records.Select(static r => Math.Round(r.Find("tsc")!.PerOperation.P10 / 199.9, 2)).ShouldBe([1.0, 1.2]);
        Directory.GetFiles(temp.Path, "*.perf.json").ShouldBeEmpty("a worker writes no baseline and no received file");
    }

    [Fact]
    public void AWorker_WritesOnlyMeasurementsOfFinalCode_AndWhyItHasNone()
    {
        using var temp = new TempDirectory();
        string prefix = temp.Combine("out", "measurement");
        (Dictionary<string, string?> environment, BaselineStoreOptions options) = Worker(temp, prefix);

        // Tier-0 code at 3x is no level of the body (issue 24): the process has none, and says why.
        static PerfResult Tier0() =>
            SyntheticResults.Result(WarmupEnd.TimeCap, ["Warmup stopped before tier 1."], Tsc(3.0)).WithRemeasure(Tier0);
        BaselineJudge.Judge(Tier0(), temp.Combine("T.cs"), "T", "M", null, options).Outcome.ShouldBe(BaselineOutcome.NotJudged);

        FreshProcessWorker.Read(prefix).ShouldBeEmpty();
        FreshProcessWorker.ReadNotFinal(prefix).ShouldBe("Warmup stopped before tier 1.");

        // Tier 0, then final code, then tier 0 again: the worker measured it twice after its first look, and writes only the
        // final one, as the first file, with nothing to say that the process had none.
        using var other = new TempDirectory();
        environment[FreshProcessWorker.OutputVariable] = prefix = other.Combine("measurement");
        PerfResult final = SyntheticResults.Result(Tsc(1.0)).WithRemeasure(Tier0);
        PerfResult tier0ThenFinal =
            SyntheticResults.Result(WarmupEnd.TimeCap, ["Warmup stopped before tier 1."], Tsc(3.0)).WithRemeasure(() => final);
        BaselineJudge.Judge(tier0ThenFinal, temp.Combine("T.cs"), "T", "M", null, options);

        FreshProcessWorker.Read(prefix).Select(static r => Math.Round(r.Find("tsc")!.PerOperation.P10 / 199.9, 2)).ShouldBe([1.0]);
        FreshProcessWorker.ReadNotFinal(prefix).ShouldBeNull();
    }

    [Theory]
    [InlineData(null, 0.0, false)]
    [InlineData("2.5", 2.5, false)]
    [InlineData("0", 0.0, false)]
    [InlineData("abc", 0.0, true)]
    [InlineData("61", 0.0, true)]
    [InlineData("-1", 0.0, true)]
    public void RecordingSpacing_ComesFromTheEnvironment_AndAValueThatIsNotValidIsNamed(string? value, double seconds, bool named)
    {
        using var temp = new TempDirectory();
        Func<string, string?> local = TestEnvironment.Local(temp);
        var options = Options(temp) with
        {
            GetEnvironmentVariable = name => name == BaselineStoreOptions.RecordingSpacingVariable ? value : local(name),
        };

        (TimeSpan spacing, string? problem) = options.ResolveFreshProcessSpacing();

        spacing.ShouldBe(TimeSpan.FromSeconds(seconds));
        if (!named)
        {
            problem.ShouldBeNull();
            return;
        }

        problem.ShouldBe(BaselineMessages.InvalidRecordingSpacing(value!, TimeSpan.Zero));
        using var host = RecordingHost.Install();
        Runs(1.0).ShouldNotRegress(
            options: options with { UpdateBaselines = true, FreshProcesses = new ScriptedProcesses([1.0, 1.0], [1.0, 1.0]) },
            callerFilePath: temp.Combine("T.cs"),
            testMethod: "M");
        host.Notices.ShouldContain(n => n.Message == problem, "said where the spacing was waited");
    }

    // The environment and options of a worker started to measure T.M twice, writing under prefix.
    private static (Dictionary<string, string?> Environment, BaselineStoreOptions Options) Worker(TempDirectory temp, string prefix)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(prefix)!);
        var environment = new Dictionary<string, string?>
        {
            [FreshProcessWorker.BaselineVariable] = temp.Combine("T.M.perf.json"),
            [FreshProcessWorker.OutputVariable] = prefix,
            [FreshProcessWorker.MeasurementsVariable] = "2",
        };
        return (environment, new BaselineStoreOptions { GetEnvironmentVariable = name => environment.GetValueOrDefault(name) });
    }

    // Records T.M in update mode, with fresh processes played by fresh; the test's own process measured 1.0.
    private static void RecordWithFreshProcesses(TempDirectory temp, IFreshProcessMeasurer fresh) =>
        Runs(1.0).ShouldNotRegress(options: Options(temp, fresh) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M");

    // The tsc counter of the one entry the recording stored.
    private static BaselineCounter RecordedTsc(TempDirectory temp) =>
        BaselineStore.Read(temp.Combine("T.M.perf.json"))!.Entries.Single().Record.Find("tsc")!;

    private static BaselineStoreOptions Options(TempDirectory temp, IFreshProcessMeasurer? fresh = null) =>
        new() { GetEnvironmentVariable = TestEnvironment.Local(temp), FreshProcesses = fresh, FreshProcessSpacing = TimeSpan.Zero };

    // The first measurement, then one per remeasurement, at the scales given (the last repeats).
    private static PerfResult Runs(params double[] scales)
    {
        int next = 1;
        return SyntheticResults.Result(Tsc(scales[0])).WithRemeasure(() => SyntheticResults.Result(Tsc(scales[Math.Min(next++, scales.Length - 1)])));
    }

    // One measurement at a scale, with the branchy reference at the given speed (ns per 1,000 characters).
    private static PerfResult Branchy(double scale, double branch)
    {
        PerfResult result = SyntheticResults.Result(Tsc(scale));
        return new PerfResult([.. result.Counters], result.Options, result.Run with { BranchSpeedNanoseconds = branch });
    }

    // One measurement at a scale beside other processes using that many cores.
    private static PerfResult Loaded(double scale, double others)
    {
        PerfResult result = SyntheticResults.Result(Tsc(scale));
        return new PerfResult([.. result.Counters], result.Options, result.Run with { OtherProcessesCores = others });
    }

    // The measurements in turn: the first, then one per remeasurement (the last repeats).
    private static PerfResult InTurn(params PerfResult[] results)
    {
        PerfResult At(int i) => results[i].WithRemeasure(() => At(Math.Min(i + 1, results.Length - 1)));
        return At(0);
    }

    // A measurement at a scale in the host's slow branchy state (the reference at 1,300 ns against the recording's 700), as
    // every remeasurement of it is.
    private static PerfResult Slow(double scale) => Branchy(scale, 1_300).WithRemeasure(() => Slow(scale));

    // 200 samples of 1,000 operations spread evenly over 198-218 ticks per operation, times the scale.
    private static CounterResult Tsc(double scale) => SyntheticResults.Counter(
        "tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 200).Select(i => (ulong)Math.Round(scale * (198_000 + (i * 100)))));

    /// <summary>Fresh processes whose measurements are given per process (scales), or null for one that crashes.</summary>
    private sealed class ScriptedProcesses(params double[]?[] processes) : IFreshProcessMeasurer
    {
        public int Started { get; private set; }

        public List<string> Asked { get; } = [];

        /// <summary>The processes (by index) whose measurements ran beside busy other processes.</summary>
        public HashSet<int> Busy { get; } = [];

        /// <summary>The branchy reference's speed (ns) of the processes (by index) that measured it.</summary>
        public Dictionary<int, double> Branch { get; } = [];

        /// <summary>The files beside the baseline when each process was asked: what the judgement had written by then.</summary>
        public List<string[]> FilesWhenAsked { get; } = [];

        public FreshProcessMeasurement Measure(string baselinePath, int measurements, CancellationToken cancellation)
        {
            Asked.Add(baselinePath);
            FilesWhenAsked.Add([.. Directory.GetFiles(Path.GetDirectoryName(baselinePath)!, "*.perf.json").Select(Path.GetFileName).Order(StringComparer.Ordinal)!]);
            int index = Started++;
            double[]? scales = index < processes.Length ? processes[index] : processes[^1];
            if (scales is null)
                return FreshProcessMeasurement.Failed($"the scripted process {index + 1} crashed.");
            double others = Busy.Contains(index) ? Environment.ProcessorCount : 0;
            PerfResult Measured(double scale) =>
                Branch.TryGetValue(index, out double branch) ? Branchy(scale, branch) : SyntheticResults.Result(Tsc(scale));
            return new FreshProcessMeasurement([.. scales.Take(measurements).Select(s => BaselineRecord.FromResult(Measured(s)) with { OtherProcessesCores = others })], null);
        }
    }
}
