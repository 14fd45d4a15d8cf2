using System.Text.Json.Nodes;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The levels a body's time takes across processes (issue 24): the recording keeps the fastest level and the ratio of the
/// slowest to it, scaled by the allocation reference, and leaves out what did not measure the same thing in the same
/// conditions; files of the earlier process-level format load as a spread.
/// </summary>
public sealed class TimeSpreadTests
{
    [Fact]
    public void Combine_KeepsTheFastestLevel_AndTheSlowestAsItsSpread()
    {
        BaselineRecord first = Level(1.15), faster = Level(1.0), slower = Level(1.3);

        BaselineRecord combined = TimeSpread.Combine([first, faster, slower], VerdictPolicy.Default).Record;

        BaselineCounter tsc = combined.Find("tsc")!;
        tsc.PerOperation.P10.ShouldBe(faster.Find("tsc")!.PerOperation.P10, "the fastest level is the baseline");
        tsc.Recording!.Processes.ShouldBe(3);
        tsc.Recording.Spread.ShouldBe(1.3, 0.01);
        tsc.Recording.DetectableChange!.Value.ShouldBeGreaterThan(0.3, "what it detects starts beyond the slowest level");
        combined.Find("allocated-bytes")!.Recording.ShouldBeNull("exact counters have no spread");
    }

    [Fact]
    public void Combine_ScalesAnAllocatingBodysLevels_ByTheAllocationReference()
    {
        // bench episodes: the body 1.70× slower in a slow allocation episode, its reference 1.82×. Scaled, that level is
        // not a level of the code: verdicts correct such an episode instead of allowing it.
        BaselineRecord fast = Level(1.0) with { AllocationSpeed = 6.3 }, episode = Level(1.7) with { AllocationSpeed = 6.3 * 1.82 };

        BaselineCounter tsc = TimeSpread.Combine([episode, fast], VerdictPolicy.Default).Record.Find("tsc")!;

        tsc.PerOperation.P10.ShouldBe(fast.Find("tsc")!.PerOperation.P10);
        tsc.Recording!.Spread.ShouldBe(1.0, "1.70 / 1.82 is faster than the kept level, once scaled");
    }

    [Fact]
    public void Combine_LeavesOutOtherCode_ABusyMachine_AndAnotherMachineSpeed_AndSaysWhy()
    {
        BaselineRecord first = Level(1.0) with { MachineSpeed = 1_100 };
        BaselineRecord otherCode = Level(1.5, bytes: 96) with { MachineSpeed = 1_100 };
        BaselineRecord busy = Level(1.5) with { MachineSpeed = 1_100, OtherProcessesCores = Environment.ProcessorCount };
        BaselineRecord slowHost = Level(1.5) with { MachineSpeed = 1_500 };

        TimeSpread.Combined combined = TimeSpread.Combine([first, otherCode, busy, slowHost], VerdictPolicy.Default);

        combined.Record.Find("tsc")!.Recording!.Spread.ShouldBe(1.0);
        combined.Record.Find("tsc")!.Recording!.Processes.ShouldBe(1);
        combined.Excluded.Count.ShouldBe(3);
        combined.Excluded[0].ShouldBe("process 2: its allocated-bytes differ (88 → 96 bytes/op), so it did not run the same code");
        combined.Excluded[1].ShouldStartWith("process 3: other processes used ");
        combined.Excluded[2].ShouldBe("process 4: the machine ran at another speed (a reference loop 1100 → 1500 ns per 1,000 steps)");

        // On a machine that stays busy every process is: then a busy level is comparable, and joins.
        BaselineRecord busyFirst = first with { OtherProcessesCores = Environment.ProcessorCount };
        TimeSpread.Combine([busyFirst, busy], VerdictPolicy.Default).Record.Find("tsc")!.Recording!.Spread.ShouldBe(1.5, 0.02);
    }

    [Fact]
    public void Combine_ThisProcessesOtherRuns_WidenTheSpreadWhereTwoAgree_ButAreNeitherKeptNorCountedAsProcesses()
    {
        // A short branchy body switched levels within one process: 1,040, 1,039, 1,038, then 1,380 and 1,389.
        BaselineRecord kept = Level(1.0), faster = Level(0.9), slower = Level(1.34), again = Level(1.35);

        BaselineCounter tsc = TimeSpread.Combine([kept], VerdictPolicy.Default, [faster, slower, again]).Record.Find("tsc")!;

        tsc.PerOperation.P10.ShouldBe(kept.Find("tsc")!.PerOperation.P10);
        tsc.Recording!.Processes.ShouldBe(1);
        tsc.Recording.Spread.ShouldBe(1.34, 0.01);

        // One run a collection or a host blip slowed is a moment, not a level: 100, 140, 101.
        TimeSpread.Combine([kept], VerdictPolicy.Default, [Level(1.4), Level(1.01)]).Record.Find("tsc")!.Recording!.Spread
            .ShouldBe(1.0, "a level needs two runs that agree");
    }

    [Fact]
    public void Combine_RecordedInTheHostsSlowBranchyState_KeepsAFreshProcessOfTheFastState()
    {
        // This process recorded while the host slowed branchy code (the reference 1.57× slower); two fresh processes ran in
        // the fast state. The fast state is the baseline; this process's level is left out, as verdicts bound that state.
        BaselineRecord slow = Level(1.7) with { BranchSpeed = 1_100 }, fast = Level(1.0) with { BranchSpeed = 700 }, fastToo = Level(1.05) with { BranchSpeed = 705 };

        TimeSpread.Combined combined = TimeSpread.Combine([slow, fast, fastToo], VerdictPolicy.Default);

        combined.Record.Find("tsc")!.PerOperation.P10.ShouldBe(fast.Find("tsc")!.PerOperation.P10);
        combined.Record.BranchSpeed.ShouldBe(700);
        combined.Record.Find("tsc")!.Recording!.Processes.ShouldBe(2);
        combined.Excluded.ShouldHaveSingleItem().ShouldBe("process 1: the host ran branchy code slower than in the recording's fast state (a reference word count 700 → 1100 ns per 1,000 characters)");
    }

    [Fact]
    public void Combine_ABodyFasterInTheSlowBranchyStateThanInEveryJoinedLevel_KeepsThatLevel_UnderTheFastStatesBranchSpeed()
    {
        // A word count with levels of its own (500 and 740 ticks) that does not follow the host's branchy state: this process
        // drew the slow state and the fast body level; the two fresh processes of the fast state both ran the slow body level.
        BaselineRecord slowState = Level(1.0) with { BranchSpeed = 900 };
        BaselineRecord fast = Level(1.47) with { BranchSpeed = 590 }, fastToo = Level(1.48) with { BranchSpeed = 595 };

        TimeSpread.Combined combined = TimeSpread.Combine([slowState, fast, fastToo], VerdictPolicy.Default);

        combined.Record.Find("tsc")!.PerOperation.P10.ShouldBe(slowState.Find("tsc")!.PerOperation.P10);
        combined.Record.BranchSpeed.ShouldBe(590, "verdicts bound the branchy state against the fast state's reference");
        combined.Record.Find("tsc")!.Recording!.Spread.ShouldBe(1.48, 0.02);
        combined.Record.Find("tsc")!.Recording!.Processes.ShouldBe(3);
        combined.Excluded.ShouldBeEmpty();
    }

    [Fact]
    public void Combine_ABodyAtItsJoinedSpeedInTheSlowBranchyState_JoinsItsLevelsThere_ABodyThatFollowsTheStateDoesNot()
    {
        // The same word count the other way round: this process drew the slow state at the slow body level, a fresh process
        // drew it at the fast one (so the state does not slow this body), two of the fast state ran the fast level.
        BaselineRecord slowLevel = Level(1.48) with { BranchSpeed = 900 }, fastLevel = Level(1.02) with { BranchSpeed = 905 };
        BaselineRecord fast = Level(1.0) with { BranchSpeed = 590 }, fastToo = Level(1.01) with { BranchSpeed = 595 };

        TimeSpread.Combined own = TimeSpread.Combine([slowLevel, fast, fastToo, fastLevel], VerdictPolicy.Default);

        own.Record.Find("tsc")!.PerOperation.P10.ShouldBe(fast.Find("tsc")!.PerOperation.P10);
        own.Record.BranchSpeed.ShouldBe(590);
        own.Record.Find("tsc")!.Recording!.Spread.ShouldBe(1.48, 0.02, "the 740-tick level is the body's own");
        own.Excluded.ShouldBeEmpty();

        // A body that follows the state ran slower in every process that drew it: those levels stay left out, as verdicts
        // bound that state by the branchy reference.
        BaselineRecord follows = Level(1.5) with { BranchSpeed = 900 }, followsToo = Level(1.52) with { BranchSpeed = 905 };
        TimeSpread.Combined follower = TimeSpread.Combine([follows, fast, fastToo, followsToo], VerdictPolicy.Default);
        follower.Record.Find("tsc")!.Recording!.Spread.ShouldBe(1.0);
        follower.Excluded.Count.ShouldBe(2);
        follower.Excluded[0].ShouldStartWith("process 1: the host ran branchy code slower");
    }

    [Fact]
    public void Extend_JoinsTheLevel_OrReplacesTheEntryWhenTheCodeChanged()
    {
        var existing = new BaselineEntry(Epyc, TimeSpread.Combine([Level(1.0), Level(1.1)], VerdictPolicy.Default).Record);

        (BaselineEntry widened, string outcome) = TimeSpread.Extend(existing, new BaselineEntry(Epyc, Level(1.25)), VerdictPolicy.Default);
        outcome.ShouldMatch(@"^extended by one process: spread tsc 1\.2[45]\d?×$");
        widened.Record.Find("tsc")!.Recording!.Processes.ShouldBe(3);

        (_, string within) = TimeSpread.Extend(widened, new BaselineEntry(Epyc, Level(1.2)), VerdictPolicy.Default);
        within.ShouldMatch(@"^extended by one process, its time within the recorded levels \(spread tsc 1\.2[45]\d?×\)$");

        (BaselineEntry replaced, string changed) = TimeSpread.Extend(widened, new BaselineEntry(Epyc, Level(1.0, bytes: 96)), VerdictPolicy.Default);
        changed.ShouldStartWith("replaced, not extended: allocated-bytes P50 +9.1% (88 → 96 bytes/op): regressed (exact)");
        replaced.Record.Find("tsc")!.Recording.ShouldBeNull("the recorded levels were of other code");
    }

    [Fact]
    public void ProcessesAndSpread_RoundTrip_AndAreLeftOutForARecordingOfOneProcess()
    {
        BaselineRecord record = TimeSpread.Combine([Level(1.0), Level(1.2)], VerdictPolicy.Default).Record;
        string json = new BaselineFile([new BaselineEntry(Epyc, record)]).ToJson();

        json.ShouldContain("\"processes\": 2,");
        json.ShouldContain("\"spread\": 1.2,");
        RecordingQuality read = BaselineJson.Parse(json).Find(Epyc.Id)!.Record.Find("tsc")!.Recording!;
        read.Processes.ShouldBe(2);
        read.Spread.ShouldBe(1.2, 0.001);

        BaselineRecord single = Level(1.0) with { Counters = [.. Level(1.0).Counters.Select(static c => c.Name == "tsc" ? c with { Recording = new RecordingQuality(2, 0.004, 0.072) } : c)] };
        new BaselineFile([new BaselineEntry(Epyc, single)]).ToJson().ShouldNotContain("\"spread\"", customMessage: "files of one process stay as they were");
    }

    [Fact]
    public void AFileWithTheEarlierProcessLevels_LoadsAsASpread_KeepingTheFastest_AndIsWrittenWithoutThem()
    {
        // The format before the spread: an entry held the records of other processes under "levels".
        JsonNode file = JsonNode.Parse(new BaselineFile([new BaselineEntry(Epyc, Level(1.15))]).ToJson())!;
        JsonObject entry = file["entries"]![Epyc.Id]!.AsObject();
        JsonArray levels = [];
        foreach (double scale in new[] { 1.0, 1.4 })
        {
            JsonObject level = JsonNode.Parse(new BaselineFile([new BaselineEntry(Epyc, Level(scale))]).ToJson())!["entries"]![Epyc.Id]!.AsObject();
            level.Remove("machine");
            levels.Add(level.DeepClone());
        }

        entry["levels"] = levels;
        BaselineFile read = BaselineJson.Parse(file.ToJsonString());

        BaselineCounter tsc = read.Find(Epyc.Id)!.Record.Find("tsc")!;
        tsc.PerOperation.P10.ShouldBe(Level(1.0).Find("tsc")!.PerOperation.P10, "the fastest level becomes the record");
        tsc.Recording!.Processes.ShouldBe(3);
        tsc.Recording.Spread.ShouldBe(1.4, 0.01);
        read.ToJson().ShouldNotContain("\"levels\"");
    }

    [Fact]
    public void FoundNewLevel_AFasterOrASlowerLevelBeyondWhatTwoRunsMayDiffer_NotOneWithinTheLevelsSeen()
    {
        BaselineRecord[] seen = [Level(1.0), Level(1.2)];
        TimeSpread.Combined before = TimeSpread.Combine(seen, VerdictPolicy.Default);

        bool With(double scale) =>
            TimeSpread.FoundNewLevel(before, TimeSpread.Combine([.. seen, Level(scale)], VerdictPolicy.Default), VerdictPolicy.Default);

        With(1.1).ShouldBeFalse("between the levels seen");
        With(1.22).ShouldBeFalse("+1.7 % beyond the slowest: two agreeing runs may differ by +4 % (half the 8 % threshold)");
        With(0.985).ShouldBeFalse("-1.5 % below the fastest");
        With(1.3).ShouldBeTrue("a slower level");
        With(0.85).ShouldBeTrue("a faster level");
    }

    [Fact]
    public void FoundNewLevel_ASecondProcessJoiningOne_IsNews_EvenAtItsLevel()
    {
        TimeSpread.Combined one = TimeSpread.Combine([Level(1.0)], VerdictPolicy.Default);

        TimeSpread.FoundNewLevel(one, TimeSpread.Combine([Level(1.0), Level(1.0)], VerdictPolicy.Default), VerdictPolicy.Default)
            .ShouldBeTrue("a spread is known only where two processes agree");
        TimeSpread.HasLevels(one, VerdictPolicy.Default).ShouldBeFalse();
        TimeSpread.HasLevels(TimeSpread.Combine([Level(1.0), Level(1.3)], VerdictPolicy.Default), VerdictPolicy.Default).ShouldBeTrue();
    }

    // A record of one process: tsc at 200 · scale ticks per operation (FloorRun), allocated bytes exact.
    private static BaselineRecord Level(double scale, ulong bytes = 88) =>
        Record(TscCounter(FloorRun(seed: (int)(scale * 1_000), scale: scale)), AllocatedBytes(Constant(bytes)));
}
