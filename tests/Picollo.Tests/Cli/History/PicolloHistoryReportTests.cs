using System.Globalization;
using Picollo.Cli.History;
using Picollo.Cli.History.Store;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// <c>picollo history report</c>, <c>check</c> and <c>acknowledge</c> through the real tool on real stores (a SQLite file
/// and a PostgreSQL database, issue 52): a history of 20 runs of main whose time rose 20 % at the 11th run and whose
/// allocations rose at the 15th is reported with those commits, fails the check until both are acknowledged, and the
/// stores a check cannot judge exit 2.
/// </summary>
public sealed class PicolloHistoryReportTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void AHistoryWithTwoChanges_IsReportedWithTheirCommits_AndFailsTheCheckUntilAcknowledged(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        Fill(test.Location);

        PicolloTool.Run report = Tool("history", "report", "--store", test.Location, "--test", "Parser.Parse", "--html", _dir.Combine("history.html"));
        report.ExitCode.ShouldBe(0, report.Output);
        string tsc = Row(report.StandardOutput, "tsc");
        tsc.ShouldContain($"| {Commit(10)[..7]} |", customMessage: "the time rose at the 11th run");
        tsc.ShouldContain("| **+");
        tsc.ShouldContain("| regression |");
        Row(report.StandardOutput, "allocated-bytes").ShouldContain($"| **+9.1 %** | {Commit(14)[..7]} | 88 → 96 bytes |");
        string page = File.ReadAllText(_dir.Combine("history.html"));
        page.ShouldContain("<svg");
        page.ShouldNotContain("<script");

        PicolloTool.Run check = Tool("history", "check", "--store", test.Location);
        check.ExitCode.ShouldBe(1, check.Output);
        check.StandardOutput.ShouldContain("picollo history check: 4 change points among the newest 10 runs", customMessage: "two tests, two counters");

        foreach ((string name, string counter, int run) in new[]
        {
            ("Parser.Parse", "tsc", 10), ("Tokenizer.Tokenize", "tsc", 10), ("Parse", "allocated-bytes", 14), ("Tokenize", "allocated-bytes", 14),
        })
        {
            PicolloTool.Run acknowledge = Tool(
                "history", "acknowledge", "--store", test.Location, "--test", name, "--counter", counter, "--commit", Commit(run)[..9],
                "--note", "the new parser: slower by design");
            acknowledge.ExitCode.ShouldBe(0, acknowledge.Output);
            acknowledge.StandardOutput.ShouldContain("is marked intended for 1 series");
        }

        PicolloTool.Run after = Tool("history", "check", "--store", test.Location);
        after.ExitCode.ShouldBe(0, after.Output);
        after.StandardOutput.ShouldBe(
            "picollo history check: no regression among the newest 10 runs of 2 series; 2 series have too few runs to judge yet "
            + "(picollo history report names them).\n",
            "the time series start again at the acknowledged change: 10 runs since are too few to find a change in");
        Row(Tool("history", "report", "--store", test.Location, "--test", "Parser.Parse").StandardOutput, "tsc")
            .ShouldContain("| intended: the new parser: slower by design |");
    }

    [Fact]
    public void Check_OnAStoreThatIsNotThere_OrTooShortToJudge_Exits2()
    {
        string missing = _dir.Combine("none.db");
        PicolloTool.Run none = Tool("history", "check", "--store", missing);
        none.ExitCode.ShouldBe(2, none.Output);
        none.StandardError.ShouldContain("no run was added there yet");
        File.Exists(missing).ShouldBeFalse("a check creates no store");

        // Time only: an exact counter is judged from its second run.
        string young = _dir.Combine("young.db");
        using (IHistoryStore store = HistoryStores.Open(young))
        {
            for (int i = 0; i < 5; i++)
                store.Add(HistoryStoreTests.Run(Commit(i), "main", Day(i)), [.. HistoryStoreTests.Results(300, 88).Where(static r => !r.Exact)]);
        }

        PicolloTool.Run five = Tool("history", "check", "--store", young);
        five.ExitCode.ShouldBe(2, five.Output);
        five.StandardError.ShouldContain("has enough runs to judge yet");
    }

    [Fact]
    public void CheckWithBisect_StartsPicolloBisect_BetweenTheRunsAroundTheNewestChange()
    {
        // The runs' commits are in no repository here: bisect is started and refuses them before any build, which shows the
        // refs it was given; a real bisect is tested in PicolloBisectTests.
        string file = _dir.Combine("history.db");
        Fill(file);

        PicolloTool.Run check = Tool("history", "check", "--store", file, "--test", "Parser.Parse", "--bisect");

        check.ExitCode.ShouldBe(1, "the check failed; bisect says where, not whether: " + check.Output);
        check.StandardError.ShouldContain(
            $"bisecting Parser.Parse's allocated-bytes change between {Commit(13)[..7]} (the run before it) and {Commit(14)[..7]}");
        check.StandardError.ShouldContain("picollo bisect: ");
    }

    [Theory]
    [InlineData("--commit", "xyz", "'xyz' is not a commit")]
    [InlineData("--test", "Nope.Never", "no test named 'Nope.Never' has runs in")]
    [InlineData("--counter", "cycles", "has no counter named 'cycles'")]
    [InlineData("--commit", "0123456789", "is at commit 0123456789")]
    public void Acknowledge_WhatMatchesNothing_Exits2_AndMarksNothing(string option, string value, string says)
    {
        string file = _dir.Combine("history.db");
        Fill(file);
        var arguments = new Dictionary<string, string>
        {
            ["--test"] = "Parser.Parse",
            ["--counter"] = "tsc",
            ["--commit"] = Commit(10),
            ["--note"] = "why",
        };
        arguments[option] = value;

        PicolloTool.Run run = Tool(["history", "acknowledge", "--store", file, .. arguments.SelectMany(static a => new[] { a.Key, a.Value })]);

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldContain(says);
        HistoryTestStore.SqliteRow(file, "SELECT COUNT(*) FROM acknowledgements").ShouldBe(["0"]);
    }

    // 20 runs of main a day apart: tsc P10 300 ticks (±1), 360 from the 11th; allocated bytes 88, 96 from the 15th.
    private static void Fill(string location)
    {
        using IHistoryStore store = HistoryStores.Open(location);
        for (int i = 0; i < 20; i++)
            store.Add(HistoryStoreTests.Run(Commit(i), "main", Day(i)), HistoryStoreTests.Results((i >= 10 ? 360 : 300) + (i % 3), i >= 14 ? 96 : 88));
    }

    private static string Commit(int run) => (0xc0ffee0 + run).ToString("x7", CultureInfo.InvariantCulture) + new string('a', 33);

    private static DateTime Day(int run) => new DateTime(2026, 11, 1, 3, 0, 0, DateTimeKind.Utc).AddDays(run);

    // The markdown table's row of Parser.Parse's counter.
    private static string Row(string markdown, string counter) =>
        markdown.Split('\n').Single(l => l.StartsWith($"| Parser.Parse | {counter} |", StringComparison.Ordinal));

    private PicolloTool.Run Tool(params string[] arguments) => PicolloTool.Invoke(_dir.Path, null, arguments);
}
