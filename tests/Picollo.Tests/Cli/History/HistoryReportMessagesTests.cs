using System.Globalization;
using System.Text;
using Picollo.Cli.History;
using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Reports;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// What <c>picollo history report</c>, <c>check</c> and <c>acknowledge</c> say (issue 52): every kind
/// <see cref="HistoryReportMessages"/> builds, in the golden file <c>Approved/HistoryReportMessages.approved.md</c>.
/// </summary>
public sealed class HistoryReportMessagesTests
{
    private const string Store = "/home/ci/cache/picollo-history.db";

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        HistorySeriesAnalysis stepped = Series("Parser.Parse", "tsc", 20, 10);
        HistorySeriesAnalysis young = Series("Tokenizer.Tokenize", "tsc", 6, 99);
        var text = new StringBuilder();
        Case(text, "Headline: one regression not acknowledged", HistoryReportMessages.Headline([stepped, young], 1));
        Case(text, "Headline: nothing alerting", HistoryReportMessages.Headline([young], 0));
        Case(text, nameof(HistoryReportMessages.Source), HistoryReportMessages.Source([stepped, young], Store));
        Case(text, "Source: no runs", HistoryReportMessages.Source([], Store));
        Case(text, nameof(HistoryReportMessages.SeriesSource), HistoryReportMessages.SeriesSource(stepped));
        Case(text, nameof(HistoryReportMessages.RunsAround), HistoryReportMessages.RunsAround(stepped.Changes[0], stepped.Points.Count));
        Case(text, "Unchanged: a steady series and a young one", string.Join("\n", HistoryReportMessages.Unchanged(
            [Series("Words.Count", "tsc", 20, 99), young])));
        Case(text, nameof(HistoryReportMessages.CheckFailed), HistoryReportMessages.CheckFailed(2, 10));
        Case(text, nameof(HistoryReportMessages.CheckPassed), HistoryReportMessages.CheckPassed(14, 10, 0));
        Case(text, "CheckPassed: some series too short yet", HistoryReportMessages.CheckPassed(12, 10, 2));
        Case(text, "CannotJudge: no runs", HistoryReportMessages.CannotJudge(0, Store));
        Case(text, "CannotJudge: every series too short", HistoryReportMessages.CannotJudge(3, Store));
        Case(text, nameof(HistoryReportMessages.Bisecting), HistoryReportMessages.Bisecting(
            "ParserPerf.Parse", "tsc", "c0ffee9aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "c0ffeeaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
        Case(text, nameof(HistoryReportMessages.CannotBisectWithoutCommits), HistoryReportMessages.CannotBisectWithoutCommits("ParserPerf.Parse"));
        Case(text, nameof(HistoryReportMessages.NewestNotPositive), HistoryReportMessages.NewestNotPositive(0));
        Case(text, nameof(HistoryReportMessages.PageWritten), HistoryReportMessages.PageWritten("/home/ci/history.html", 14));
        Case(text, nameof(HistoryReportMessages.NotACommit), HistoryReportMessages.NotACommit("HEAD~3"));
        Case(text, nameof(HistoryReportMessages.EmptyNote), HistoryReportMessages.EmptyNote());
        Case(text, "NoSuchTest: with the nearest names", HistoryReportMessages.NoSuchTest(
            "Parser.Prase", Store, null, ["Parser.Parse", "Parser.ParseLarge"]));
        Case(text, "NoSuchTest: on one machine", HistoryReportMessages.NoSuchTest("Parser.Parse", Store, "a1b2c3", []));
        Case(text, nameof(HistoryReportMessages.NoSuchCounter), HistoryReportMessages.NoSuchCounter(
            "Parser.Parse", "cycles", Store, ["allocated-bytes", "task-clock", "tsc"]));
        Case(text, nameof(HistoryReportMessages.CommitNotInSeries), HistoryReportMessages.CommitNotInSeries("Parser.Parse", "tsc", Store, "0123456789"));
        Case(text, nameof(HistoryReportMessages.Acknowledged), HistoryReportMessages.Acknowledged(
            "c0ffee1aaaaaaaa", ["Parser.Parse tsc on a1b2c3d4e5f6", "Parser.Parse tsc on 9f8e7d6c5b4a"]));

        Approvals.Verify(text.ToString(), "HistoryReportMessages");
    }

    // A series of `runs` runs a day apart, 20 % higher from run `step` on, analysed as the commands do.
    private static HistorySeriesAnalysis Series(string test, string counter, int runs, int step)
    {
        var key = new HistorySeriesKey("a1b2c3d4e5f6a7b8", test, counter, "ticks", Exact: false);
        List<HistoryPoint> points = [.. Enumerable.Range(0, runs).Select(i => new HistoryPoint(
            i + 1, (0xc0ffee0 + i).ToString("x7", CultureInfo.InvariantCulture) + "aaaa", "main",
            new DateTime(2026, 11, 1, 3, 0, 0, DateTimeKind.Utc).AddDays(i), (i >= step ? 360 : 300) + (i % 3), 0, 0))];
        return HistoryAnalyzer.Analyze(key, points, [], ChangePointOptions.Default);
    }

    private static void Case(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
