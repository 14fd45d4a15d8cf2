using System.Diagnostics;
using Picollo.Baselines.Records;
using Picollo.Cli.History;
using Picollo.Cli.History.Store;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// <c>picollo history add</c> and <c>picollo history prune</c> through the real tool (issue 52): what one line says, what
/// the store then holds, git's commit and branch, and the results folders it refuses with nothing written.
/// </summary>
public sealed class PicolloHistoryAddTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void Add_StoresTheRun_AndTheSeriesReadsIt(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        string first = HistoryResultsFolder.Write(_dir.Combine("first"), 3, ticks: 300);
        string second = HistoryResultsFolder.Write(_dir.Combine("second"), 3, ticks: 330);

        PicolloTool.Run one = Add(first, "--store", test.Location, "--commit", "1111111111111111111111111111111111111111", "--branch", "main", "--machine", "ci-x64");
        PicolloTool.Run two = Add(second, "--store", test.Location, "--commit", "2222222", "--parent", "1111111", "--branch", "main", "--machine", "ci-x64");

        one.ExitCode.ShouldBe(0, one.Output);
        two.ExitCode.ShouldBe(0, two.Output);
        using IHistoryStore store = HistoryStores.Open(test.Location, create: false);
        one.StandardOutput.ShouldBe($"picollo history: added run 1 (3 tests, 6 counters) to {store.Name} for ci-x64 at 111111111111.\n");
        two.StandardOutput.ShouldBe($"picollo history: added run 2 (3 tests, 6 counters) to {store.Name} for ci-x64 at 2222222.\n");
        one.StandardError.ShouldBeEmpty();

        store.SeriesKeys("Suite.Test001").ShouldBe(
        [
            new HistorySeriesKey("ci-x64", "Suite.Test001", "allocated-bytes", "bytes", Exact: true),
            new HistorySeriesKey("ci-x64", "Suite.Test001", "tsc", "ticks", Exact: false),
        ]);
        IReadOnlyList<HistoryPoint> tsc = store.Series(new HistorySeriesKey("ci-x64", "Suite.Test001", "tsc", "ticks", false), "main");
        tsc.Select(static p => p.Commit).ShouldBe(["1111111111111111111111111111111111111111", "2222222"]);
        tsc[0].Value.ShouldBe(309, "P10 of 300 … 399 ticks per operation");
        tsc[1].Value.ShouldBe(339);
        store.Series(new HistorySeriesKey("ci-x64", "Suite.Test001", "allocated-bytes", "bytes", true), null).Select(static p => p.Value).ShouldBe([88, 88]);
        test.Scalar("SELECT parent_sha FROM runs WHERE id = 2").ShouldBe("1111111");
        test.Count("SELECT COUNT(*) FROM results WHERE histogram IS NULL").ShouldBe(0, "every result keeps its histogram");
    }

    [Fact]
    public void Add_InAGitRepository_RecordsHeadItsParentAndTheBranch_AndThisMachinesKey()
    {
        string repo = _dir.Combine("repo");
        Directory.CreateDirectory(repo);
        Git(repo, "init", "-q", "-b", "trunk");
        Git(repo, "commit", "-q", "--allow-empty", "-m", "one");
        Git(repo, "commit", "-q", "--allow-empty", "-m", "two");
        string head = Git(repo, "rev-parse", "HEAD"), parent = Git(repo, "rev-parse", "HEAD^");
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run run = PicolloTool.Invoke(repo, null, "history", "add", folder);

        run.ExitCode.ShouldBe(0, run.Output);
        string store = Path.Combine(repo, HistoryStores.DefaultFile);
        run.StandardOutput.ShouldBe($"picollo history: added run 1 (1 test, 2 counters) to {store} for {MachineFingerprint.Current.Id} at {head[..12]}.\n");
        HistoryTestStore.SqliteRow(store, "SELECT commit_sha, parent_sha, branch, machine_key FROM runs")
            .ShouldBe([head, parent, "trunk", MachineFingerprint.Current.Id]);
    }

    [Fact]
    public void Add_OutsideAGitRepository_SaysSo_AndStoresNoCommit()
    {
        string store = _dir.Combine("h.db");
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "history", "add", folder, "--store", store);

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardOutput.ShouldEndWith(" at no commit.\n");
        run.StandardError.ShouldStartWith($"picollo history: {_dir.Path} is not a git repository (fatal: not a git repository");
        run.StandardError.ShouldContain("give --commit <sha> --branch <name>");
    }

    [Fact]
    public void EmptyFolder_NothingToAdd_NothingWritten()
    {
        string store = _dir.Combine("h.db");
        Directory.CreateDirectory(_dir.Combine("empty"));

        PicolloTool.Run run = Add(_dir.Combine("empty"), "--store", store, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo history add: no result file (*.result.json) under {_dir.Combine("empty")}: nothing to add, nothing written.");
        File.Exists(store).ShouldBeFalse();
    }

    [Fact]
    public void MissingFolder_IsNamed_NothingWritten()
    {
        string store = _dir.Combine("h.db");

        PicolloTool.Run run = Add(_dir.Combine("nope"), "--store", store, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo history add: no folder {_dir.Combine("nope")}: give a run's results folder");
        File.Exists(store).ShouldBeFalse();
    }

    [Fact]
    public void UnreadableFiles_AreSkippedAndNamed_UnlessNoneCanBeRead()
    {
        string store = _dir.Combine("h.db");
        string broken = _dir.Combine("broken");
        Directory.CreateDirectory(broken);
        File.WriteAllText(Path.Combine(broken, "Suite.Bad.result.json"), "{ not json");

        PicolloTool.Run none = Add(broken, "--store", store, "--commit", "abc");

        none.ExitCode.ShouldBe(2, none.Output);
        none.StandardError.ShouldContain($"picollo history add: skipped {Path.Combine(broken, "Suite.Bad.result.json")}: not a Picollo result file:");
        none.StandardError.ShouldContain($"the one result file under {broken} could not be read (the reason is above): nothing written.");
        File.Exists(store).ShouldBeFalse();

        HistoryResultsFolder.Write(broken, 2);
        PicolloTool.Run some = Add(broken, "--store", store, "--commit", "abc");

        some.ExitCode.ShouldBe(0, some.Output);
        some.StandardOutput.ShouldStartWith("picollo history: added run 1 (2 tests, 4 counters) to ");
        some.StandardError.ShouldStartWith($"picollo history add: skipped {Path.Combine(broken, "Suite.Bad.result.json")}");
    }

    [Fact]
    public void Prune_DropsOldHistograms_FromTheCommandLine()
    {
        string store = _dir.Combine("h.db");
        using (IHistoryStore history = HistoryStores.Open(store))
            history.Add(HistoryStoreTests.Run("old", "main", DateTime.UtcNow.AddDays(-100)), HistoryStoreTests.Results(300, 88));
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run add = Add(folder, "--store", store, "--commit", "new", "--keep-histograms", "365");
        PicolloTool.Run prune = PicolloTool.Invoke(_dir.Path, null, "history", "prune", "--keep-histograms", "30", "--store", store);
        PicolloTool.Run zero = PicolloTool.Invoke(_dir.Path, null, "history", "prune", "--keep-histograms", "0", "--store", store);

        add.ExitCode.ShouldBe(0, add.Output);
        add.StandardOutput.ShouldEndWith($"picollo history: dropped the histograms of 0 results older than 365 days from {store}; their summaries stay.\n");
        prune.ExitCode.ShouldBe(0, prune.Output);
        prune.StandardOutput.ShouldBe($"picollo history: dropped the histograms of 4 results older than 30 days from {store}; their summaries stay.\n");
        zero.ExitCode.ShouldBe(2);
        zero.StandardError.ShouldStartWith("picollo history prune: --keep-histograms 0 is not a number of days above 0 and at most 36,500");
    }

    private PicolloTool.Run Add(string folder, params string[] options) =>
        PicolloTool.Invoke(_dir.Path, null, ["history", "add", folder, .. options]);

    private static string Git(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        start.Environment["GIT_AUTHOR_NAME"] = start.Environment["GIT_COMMITTER_NAME"] = "t";
        start.Environment["GIT_AUTHOR_EMAIL"] = start.Environment["GIT_COMMITTER_EMAIL"] = "t@example.org";
        using Process git = Process.Start(start)!;
        string output = git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        git.ExitCode.ShouldBe(0, git.StandardError.ReadToEnd());
        return output.Trim();
    }
}
