using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class BaselineStoreTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    private string BaselinePath => _dir.Combine("Sorting.Quick.perf.json");

    private string ReceivedPath => _dir.Combine("Sorting.Quick.received.perf.json");

    public void Dispose() => _dir.Dispose();

    private static BaselineStore Store(bool update = false, MissingBaselinePolicy missingInCI = MissingBaselinePolicy.Notice, params (string Name, string Value)[] env) =>
        new(new BaselineStoreOptions
        {
            UpdateBaselines = update,
            MissingBaselineInCI = missingInCI,
            GetEnvironmentVariable = name => env.FirstOrDefault(v => v.Name == name).Value,
        });

    private void WriteBaseline(params BaselineEntry[] entries) => File.WriteAllText(BaselinePath, new BaselineFile(entries).ToJson());

    [Fact]
    public void MissingBaseline_NamesTheCountersNotComparedForOneReasonOnOneLine()
    {
        BaselineCheckResult result = Store().Check(BaselinePath, Epyc, Record(TaskClock(Constant(100)), AllocatedBytes(Constant(88))));

        result.Message.ShouldStartWith("task-clock, allocated-bytes: no baseline file\nMissing baselines pass locally.\n");
    }

    [Fact]
    public void MissingBaselineLocally_PassesWithNoticeAndWritesReceived()
    {
        BaselineCheckResult result = Store().Check(BaselinePath, Epyc, Record(TaskClock(Constant(100))));

        result.Outcome.ShouldBe(BaselineOutcome.Notice);
        result.IsFailure.ShouldBeFalse();
        result.ReceivedPath.ShouldBe(ReceivedPath);
        result.Message.ShouldBe(
            $"task-clock: no baseline file\nMissing baselines pass locally.\nReceived: {ReceivedPath}. To accept, rename it to Sorting.Quick.perf.json or run with PICOLLO_UPDATE_BASELINES=1.");
        File.Exists(BaselinePath).ShouldBeFalse();
        BaselineStore.Read(ReceivedPath)!.Find(Epyc.Id).ShouldNotBeNull();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void APlan_WritesNothingUntilWritten_AndItsPreviewIsTheWrittenResult(bool update)
    {
        BaselineStore store = Store(update);
        BaselineCheckPlan plan = store.Plan(BaselinePath, Epyc, Record(TaskClock(Constant(100))));
        BaselineCheckResult preview = store.Preview(plan);

        Directory.GetFiles(_dir.Path).ShouldBeEmpty("deciding writes nothing");
        BaselineCheckResult written = store.Write(plan);
        written.Outcome.ShouldBe(preview.Outcome);
        written.ReceivedPath.ShouldBe(preview.ReceivedPath);
        written.Verdicts.ShouldBe(preview.Verdicts);
        File.Exists(update ? BaselinePath : ReceivedPath).ShouldBeTrue();
    }

    [Fact]
    public void MissingBaselineInCi_FailsWhenConfigured()
    {
        BaselineCheckResult result = Store(missingInCI: MissingBaselinePolicy.Fail, env: ("GITHUB_ACTIONS", "true"))
            .Check(BaselinePath, Epyc, Record(TaskClock(Constant(100))));

        result.Outcome.ShouldBe(BaselineOutcome.Fail);
        result.Message.ShouldContain("CI build (GITHUB_ACTIONS): missing baselines fail (MissingBaselineInCI = Fail).");
    }

    [Fact]
    public void MissingBaselineInCi_IsANoticeByDefault() =>
        Store(env: ("CI", "true")).Check(BaselinePath, Epyc, Record(TaskClock(Constant(100)))).Outcome.ShouldBe(BaselineOutcome.Notice);

    [Fact]
    public void ReceivedFile_AcceptedByRename_Passes()
    {
        Store().Check(BaselinePath, Epyc, Record(TaskClock(Constant(100))));
        File.Move(ReceivedPath, BaselinePath);

        BaselineCheckResult result = Store().Check(BaselinePath, Epyc, Record(TaskClock(Constant(100))));

        result.Outcome.ShouldBe(BaselineOutcome.Pass);
        File.Exists(ReceivedPath).ShouldBeFalse();
    }

    [Fact]
    public void Regression_FailsAndReceivedHoldsEveryMachine()
    {
        WriteBaseline(new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 30, 1)))), new BaselineEntry(Xeon, Record(TaskClock(Constant(5)))));

        BaselineCheckResult result = Store().Check(BaselinePath, Epyc, Record(TaskClock(Noisy(1_200, 30, 2))));

        result.Outcome.ShouldBe(BaselineOutcome.Fail);
        result.Message.ShouldStartWith("task-clock P10 +");
        BaselineFile received = BaselineStore.Read(ReceivedPath)!;
        received.Entries.Count.ShouldBe(2);
        received.Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBeGreaterThan(1_100UL);
    }

    [Fact]
    public void Improvement_PassesWithNoticeAndOffersReceived()
    {
        WriteBaseline(new BaselineEntry(Epyc, Record(AllocatedBytes(Constant(88)))));

        BaselineCheckResult result = Store().Check(BaselinePath, Epyc, Record(AllocatedBytes(Constant(0))));

        result.Outcome.ShouldBe(BaselineOutcome.Notice);
        result.Verdicts.ShouldHaveSingleItem().Status.ShouldBe(CounterVerdictStatus.Improved);
        File.Exists(ReceivedPath).ShouldBeTrue();
    }

    [Fact]
    public void PassAfterAFailure_RemovesTheStaleReceivedFile()
    {
        WriteBaseline(new BaselineEntry(Epyc, Record(AllocatedBytes(Constant(88)))));
        Store().Check(BaselinePath, Epyc, Record(AllocatedBytes(Constant(120)))).Outcome.ShouldBe(BaselineOutcome.Fail);
        File.Exists(ReceivedPath).ShouldBeTrue();

        Store().Check(BaselinePath, Epyc, Record(AllocatedBytes(Constant(88)))).Outcome.ShouldBe(BaselineOutcome.Pass);

        File.Exists(ReceivedPath).ShouldBeFalse();
    }

    [Fact]
    public void PassOnOneMachine_KeepsAnotherMachinesPendingEntry()
    {
        WriteBaseline(new BaselineEntry(Epyc, Record(AllocatedBytes(Constant(88)))));
        Store().Check(BaselinePath, Xeon, Record(TaskClock(Constant(7)))).Outcome.ShouldBe(BaselineOutcome.Notice);

        Store().Check(BaselinePath, Epyc, Record(AllocatedBytes(Constant(88)))).Outcome.ShouldBe(BaselineOutcome.Pass);

        BaselineStore.Read(ReceivedPath)!.Find(Xeon.Id).ShouldNotBeNull();
    }

    [Fact]
    public void UpdateModeFromEnvironment_MergesAndKeepsOtherMachines()
    {
        WriteBaseline(new BaselineEntry(Xeon, Record(TaskClock(Constant(5)))), new BaselineEntry(Epyc, Record(TaskClock(Constant(1_000)), AllocatedBytes(Constant(88)))));
        BaselineStore store = Store(env: ("PICOLLO_UPDATE_BASELINES", "1"));

        store.IsUpdateMode.ShouldBeTrue();
        BaselineCheckResult result = store.Check(BaselinePath, Epyc, Record(TaskClock(Constant(900))));

        result.Outcome.ShouldBe(BaselineOutcome.Updated);
        result.IsFailure.ShouldBeFalse();
        BaselineFile file = BaselineStore.Read(BaselinePath)!;
        file.Find(Xeon.Id)!.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBe(5UL);
        BaselineEntry epyc = file.Find(Epyc.Id)!;
        epyc.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBe(900UL);
        epyc.Record.Find("allocated-bytes").ShouldNotBeNull();
        File.Exists(ReceivedPath).ShouldBeFalse();
    }

    [Fact]
    public void UpdateModeFromApi_CreatesTheBaseline()
    {
        Store(update: true).Check(BaselinePath, Epyc, Record(TaskClock(Constant(100)))).Outcome.ShouldBe(BaselineOutcome.Updated);

        Store().Check(BaselinePath, Epyc, Record(TaskClock(Constant(100)))).Outcome.ShouldBe(BaselineOutcome.Pass);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void CorruptBaseline_ThrowsNamingFileAndPosition_AndIsLeftUntouched(bool update)
    {
        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(Constant(100))))]).ToJson();
        byte[] corrupt = System.Text.Encoding.UTF8.GetBytes(json[..(json.Length / 2)]);
        File.WriteAllBytes(BaselinePath, corrupt);

        var ex = Should.Throw<BaselineFormatException>(() => Store(update).Check(BaselinePath, Epyc, Record(TaskClock(Constant(100)))));

        ex.FilePath.ShouldBe(BaselinePath);
        ex.LineNumber.ShouldNotBeNull();
        ex.Message.ShouldContain(BaselinePath);
        ex.Message.ShouldContain("(line ");
        File.ReadAllBytes(BaselinePath).ShouldBe(corrupt);
        File.Exists(ReceivedPath).ShouldBeFalse();
    }

    [Fact]
    public async Task EightParallelWriters_OfDifferentMachines_LoseNoEntry()
    {
        MachineFingerprint[] machines = [.. Enumerable.Range(0, 8).Select(i => Machine($"CPU model {i}"))];
        WriteBaseline(new BaselineEntry(Xeon, Record(TaskClock(Constant(5)))));

        for (int round = 0; round < 3; round++)
        {
            using var start = new Barrier(machines.Length);
            await Task.WhenAll(machines.Select(m => Task.Run(() =>
            {
                start.SignalAndWait(TestContext.Current.CancellationToken);
                Store().Update(BaselinePath, new BaselineEntry(m, Record(TaskClock(Constant((ulong)(100 + round))))));
            }, TestContext.Current.CancellationToken)));
        }

        BaselineFile file = BaselineStore.Read(BaselinePath)!;
        file.Entries.Count.ShouldBe(9);
        foreach (MachineFingerprint m in machines)
            file.Find(m.Id)!.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBe(102UL);

        Directory.GetFiles(_dir.Path, "*.tmp").ShouldBeEmpty();
    }

    [Fact]
    public async Task EightParallelWriters_OfOneMachinesCounters_LoseNoCounter()
    {
        using var start = new Barrier(8);
        await Task.WhenAll(Enumerable.Range(0, 8).Select(i => Task.Run(() =>
        {
            var counter = BaselineCounter.FromHistogram($"counter-{i}", "events", CounterKind.Software, Constant((ulong)i), 1);
            start.SignalAndWait(TestContext.Current.CancellationToken);
            Store().Update(BaselinePath, new BaselineEntry(Epyc, Record(counter)));
        }, TestContext.Current.CancellationToken)));

        BaselineEntry entry = BaselineStore.Read(BaselinePath)!.Entries.ShouldHaveSingleItem();
        entry.Record.Counters.Select(c => c.Name).Order(StringComparer.Ordinal).ShouldBe([.. Enumerable.Range(0, 8).Select(i => $"counter-{i}")]);
    }

    [Fact]
    public async Task EightParallelChecks_WithoutBaseline_ReceiveEveryMachine()
    {
        MachineFingerprint[] machines = [.. Enumerable.Range(0, 8).Select(i => Machine($"CPU model {i}"))];
        using var start = new Barrier(machines.Length);

        BaselineCheckResult[] results = await Task.WhenAll(machines.Select(m => Task.Run(() =>
        {
            start.SignalAndWait(TestContext.Current.CancellationToken);
            return Store().Check(BaselinePath, m, Record(TaskClock(Constant(100))));
        }, TestContext.Current.CancellationToken)));

        results.ShouldAllBe(r => r.Outcome == BaselineOutcome.Notice);
        BaselineStore.Read(ReceivedPath)!.Entries.Count.ShouldBe(8);
        File.Exists(BaselinePath).ShouldBeFalse();
    }
}
