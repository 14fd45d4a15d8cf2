using System.Diagnostics;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// "Two processes appending at once lose nothing" (issue 52), proved as its proof asks: 4 picollo processes appending 100
/// runs each to one store, SQLite and PostgreSQL, and every row there. Each process adds one results folder 100 times
/// through the tool's hidden <c>--repeat</c> (one transaction per run, as 100 separate adds would write): 400 process
/// starts would cost the suite minutes, and the processes still contend run by run for the whole time.
/// </summary>
public sealed class HistoryConcurrencyTests : IDisposable
{
    private const int Processes = 4;
    private const int RunsEach = 100;

    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void FourProcessesAppending100RunsEach_LoseNothing(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 2);
        var clock = Stopwatch.StartNew();

        PicolloTool.Run[] runs = [.. Enumerable.Range(0, Processes).AsParallel().WithDegreeOfParallelism(Processes).Select(p =>
            PicolloTool.Invoke(_dir.Path, null, TimeSpan.FromMinutes(2), new Dictionary<string, string?>(), "history", "add", folder,
                "--store", test.Location, "--commit", $"c{p}", "--branch", "main", "--machine", "ci", "--repeat", RunsEach.ToString(System.Globalization.CultureInfo.InvariantCulture)))];

        foreach (PicolloTool.Run run in runs)
        {
            run.ExitCode.ShouldBe(0, run.Output);
            run.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length.ShouldBe(RunsEach);
        }

        test.Count("SELECT COUNT(*) FROM runs").ShouldBe(Processes * RunsEach);
        test.Count("SELECT COUNT(DISTINCT id) FROM runs").ShouldBe(Processes * RunsEach);
        test.Count("SELECT COUNT(*) FROM results").ShouldBe(Processes * RunsEach * 4, "2 tests × 2 counters a run");
        test.Count("SELECT COUNT(*) FROM (SELECT run_id FROM results GROUP BY run_id HAVING COUNT(*) = 4) whole").ShouldBe(Processes * RunsEach);
        for (int p = 0; p < Processes; p++)
            test.Count($"SELECT COUNT(*) FROM runs WHERE commit_sha = 'c{p}'").ShouldBe(RunsEach);
        TestContext.Current.SendDiagnosticMessage($"{kind}: {Processes} × {RunsEach} runs in {clock.Elapsed.TotalSeconds:0.0} s");
    }
}
