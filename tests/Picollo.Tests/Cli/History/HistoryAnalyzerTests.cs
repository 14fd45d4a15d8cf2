using System.Globalization;
using System.Xml.Linq;
using Picollo.Cli.History;
using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Reports;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// How the history's reports place change points on runs (issue 52): the detector's finds pinned to commits, acknowledged
/// changes splitting a series, what a check alerts on, and the markdown and SVG a user reads. Series are built here, no
/// store: the stores are tested with real files and a real server in their own tests.
/// </summary>
public sealed class HistoryAnalyzerTests
{
    private static readonly HistorySeriesKey s_time = new("machine-a1b2c3d4e5f6", "ParserPerf.Parse", "task-clock", "ns", Exact: false);
    private static readonly HistorySeriesKey s_bytes = new("machine-a1b2c3d4e5f6", "ParserPerf.Parse", "allocated-bytes", "bytes", Exact: true);

    [Fact]
    public void AStep_IsPinnedToTheFirstRunAfterIt_AndAlertsWhileAmongTheNewestRuns()
    {
        List<HistoryPoint> points = Points(Noisy(30, 1_000, 15, 1.2));

        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, points, [], ChangePointOptions.Default);

        analysis.Judged.ShouldBeTrue();
        HistoryChange change = analysis.Changes.ShouldHaveSingleItem();
        change.Point.Index.ShouldBeInRange(14, 16);
        change.First.ShouldBe(points[change.Point.Index]);
        change.Last.ShouldBe(points[change.Point.Index - 1]);
        change.IsRegression.ShouldBeTrue();
        change.Point.Magnitude.ShouldBeInRange(0.15, 0.25);
        analysis.AlertsAmongNewest(16).ShouldHaveSingleItem();
        analysis.AlertsAmongNewest(10).ShouldBeEmpty("15 runs old: it alerted while it was new");
    }

    [Fact]
    public void AnImprovement_IsReported_ButDoesNotAlert()
    {
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, Points(Noisy(30, 1_000, 20, 0.7)), [], ChangePointOptions.Default);

        HistoryChange change = analysis.Changes.ShouldHaveSingleItem();
        change.IsRegression.ShouldBeFalse();
        analysis.AlertsAmongNewest(30).ShouldBeEmpty();
    }

    [Fact]
    public void AnAcknowledgedChange_StopsAlerting_AndTheRunsAfterItAreJudgedOnTheirOwn()
    {
        // +20 % at run 12 (intended), then +30 % on that new level at run 26.
        double[] values = Noisy(40, 1_000, 12, 1.2);
        for (int i = 26; i < values.Length; i++)
            values[i] *= 1.3;
        List<HistoryPoint> points = Points(values);
        HistorySeriesAnalysis found = HistoryAnalyzer.Analyze(s_time, points, [], ChangePointOptions.Default);
        string commit = found.Changes[0].First.Commit!;

        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(
            s_time, points, [new HistoryAcknowledgement(s_time.MachineKey, s_time.Test, s_time.Counter, commit[..8], "new parser, slower by design", DateTime.UtcNow)],
            ChangePointOptions.Default);

        analysis.Changes.Count.ShouldBe(2);
        analysis.Changes[0].Acknowledgement!.Note.ShouldBe("new parser, slower by design");
        analysis.Changes[0].Alerts.ShouldBeFalse();
        analysis.Changes[1].Point.Index.ShouldBeInRange(25, 27);
        analysis.Changes[1].Point.Magnitude.ShouldBeInRange(0.25, 0.35, "judged against the new normal, not the runs before it");
        analysis.AlertsAmongNewest(40).ShouldHaveSingleItem().ShouldBe(analysis.Changes[1]);
    }

    [Fact]
    public void AnExactCounter_ChangesAtItsFirstDifferingValue_EvenWithFewRuns()
    {
        List<HistoryPoint> points = Points([480, 480, 480, 512, 512]);

        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_bytes, points, [], ChangePointOptions.Default);

        analysis.Judged.ShouldBeTrue();
        HistoryChange change = analysis.Changes.ShouldHaveSingleItem();
        change.Point.Index.ShouldBe(3);
        change.First.Commit.ShouldBe(points[3].Commit);
        change.Alerts.ShouldBeTrue();
    }

    [Fact]
    public void AnExactCounter_MovingWithinTheToleranceAbJudgesItWith_HasNoChange()
    {
        // A simulated counter's mean per operation moves by thousandths between runs of unchanged code (seen: 19.996 and
        // 19.997 branch misses); a deterministic one's by the rounding of a mean of integers.
        var simulated = new HistorySeriesKey(s_time.MachineKey, s_time.Test, "sim-branch-misses", "events", Exact: true);
        HistorySeriesAnalysis misses = HistoryAnalyzer.Analyze(simulated, Points([19.996, 19.997, 19.996, 19.996, 21.5, 21.501]), [], ChangePointOptions.Default);
        HistorySeriesAnalysis bytes = HistoryAnalyzer.Analyze(s_bytes, Points([88, 88.3, 87.8, 96, 96.2]), [], ChangePointOptions.Default);

        misses.Changes.ShouldHaveSingleItem().Point.Index.ShouldBe(4);
        bytes.Changes.ShouldHaveSingleItem().Point.Index.ShouldBe(3);
        bytes.Changes[0].Point.Before.ShouldBe(88);
    }

    [Fact]
    public void AShortSeries_IsNotJudged_AndTheReportSaysSo()
    {
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, Points(Noisy(6, 1_000, 3, 2)), [], ChangePointOptions.Default);

        analysis.Judged.ShouldBeFalse();
        analysis.Changes.ShouldBeEmpty();
        HistoryMarkdown.Write([analysis], "history.db").ShouldContain("Not judged yet, too few runs: ParserPerf.Parse task-clock (6 runs)");
    }

    [Fact]
    public void TheMarkdown_NamesTheCommit_TheMagnitude_AndTheRunsAroundTheChange()
    {
        List<HistoryPoint> points = Points(Noisy(30, 1_000, 15, 1.2));
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, points, [], ChangePointOptions.Default);
        HistoryChange change = analysis.Changes.ShouldHaveSingleItem();

        string markdown = HistoryMarkdown.Write([analysis], "history.db");

        markdown.ShouldStartWith("## Picollo history: 1 series, 1 change point, 1 regression not acknowledged\n");
        markdown.ShouldContain("Store: history.db; 30 runs from ");
        string row = markdown.Split('\n').Single(static l => l.StartsWith("| ParserPerf.Parse", StringComparison.Ordinal));
        row.ShouldContain($"| **{HistoryText.Magnitude(change.Point.Magnitude)}** | {change.First.Commit![..7]} |");
        row.ShouldContain($"{change.Last.Commit![..7]} (");
        row.ShouldContain("| regression |");
    }

    [Fact]
    public void TheTrend_IsWellFormedSvg_WithAPointPerRun_AndAMarkPerChange()
    {
        List<HistoryPoint> points = Points(Noisy(30, 1_000, 15, 1.2));
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, points, [], ChangePointOptions.Default);

        XElement svg = XElement.Parse(HistoryTrendPlot.ToSvg(analysis));

        XNamespace ns = "http://www.w3.org/2000/svg";
        svg.Descendants(ns + "circle").Count().ShouldBe(30);
        svg.Descendants(ns + "text").Select(static t => t.Value).ShouldContain("1,100", "the axis ticks are round numbers");
        XElement mark = svg.Descendants(ns + "g").ShouldHaveSingleItem();
        mark.Value.ShouldBe($"{analysis.Changes[0].First.Commit![..7]} {HistoryText.Magnitude(analysis.Changes[0].Point.Magnitude)}");
    }

    [Fact]
    public void ALongTrend_IsDrawnAsMediansOfConsecutiveRuns_WithItsChangeStillMarked()
    {
        // 1,000 runs drawn point by point made a page of 1,000 series 131 MB.
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_time, Points(Noisy(1_000, 1_000, 700, 1.2)), [], ChangePointOptions.Default);

        XElement svg = XElement.Parse(HistoryTrendPlot.ToSvg(analysis));

        XNamespace ns = "http://www.w3.org/2000/svg";
        svg.Descendants(ns + "circle").ShouldBeEmpty();
        svg.Descendants(ns + "polyline").Single().Attribute("points")!.Value.Split(' ').Length.ShouldBe(200, "medians of 5 runs");
        svg.Descendants(ns + "text").ShouldContain(static t => t.Value == "1,000 runs, drawn as medians of 5");
        svg.Descendants(ns + "g").ShouldHaveSingleItem().Value.ShouldStartWith(analysis.Changes.ShouldHaveSingleItem().First.Commit![..7]);
    }

    [Fact]
    public void AFlatSeriesAtZero_StillHasAnAxis()
    {
        HistorySeriesAnalysis analysis = HistoryAnalyzer.Analyze(s_bytes, Points([0, 0, 0, 0]), [], ChangePointOptions.Default);

        XElement svg = XElement.Parse(HistoryTrendPlot.ToSvg(analysis));

        svg.Descendants("{http://www.w3.org/2000/svg}text").Select(static t => t.Value).ShouldContain("0");
    }

    [Theory]
    [InlineData("0123456789abcdef0123456789abcdef01234567", "0123456", true)]
    [InlineData("0123456789abcdef0123456789abcdef01234567", "0123456789ABCDEF", true)]
    [InlineData("0123456", "0123456789abcdef0123456789abcdef01234567", true)]
    [InlineData("0123456789abcdef0123456789abcdef01234567", "012345", false)]
    [InlineData("0123456789abcdef0123456789abcdef01234567", "1123456", false)]
    [InlineData(null, "0123456", false)]
    public void ACommit_MatchesItsAbbreviation_OfSevenCharactersOrMore(string? stored, string typed, bool same) =>
        HistoryAnalyzer.SameCommit(stored, typed).ShouldBe(same);

    // Values around a level with 1 % noise (seeded), multiplied by factor from index step on.
    private static double[] Noisy(int count, double level, int step, double factor)
    {
        var random = new Random(52);
        return [.. Enumerable.Range(0, count).Select(i => level * (i >= step ? factor : 1) * (1 + (0.01 * (random.NextDouble() - 0.5))))];
    }

    // One run a day, each at its own commit.
    private static List<HistoryPoint> Points(IReadOnlyList<double> values) =>
        [.. values.Select((v, i) => new HistoryPoint(
            i + 1, (0xabc0000 + i).ToString("x7", CultureInfo.InvariantCulture) + new string('0', 33), "main",
            new DateTime(2026, 11, 1, 3, 0, 0, DateTimeKind.Utc).AddDays(i), v, v, v))];
}
