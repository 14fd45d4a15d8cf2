using Picollo.Cli.History.Reports;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history check [--newest N]</c>, for a nightly or post-merge job: exit 1 when a change point that made a test
/// slower or costlier, not acknowledged, lies among each series' newest runs; 0 when none does; 2 when nothing could be
/// judged (no runs, or every series still too short).
/// </summary>
internal static class HistoryCheckCommand
{
    /// <summary>How many of a series' newest runs a change point must fall among to alert, unless told otherwise.</summary>
    /// <remarks>
    /// A change is found once a minimum segment of runs shows it (5 by default): it then lies among the newest 5 to 10 runs,
    /// so a daily job alerts on it for several days, until it is acknowledged or fixed, and not forever after.
    /// </remarks>
    public const int DefaultNewest = 10;

    /// <summary>What the command was asked.</summary>
    /// <param name="Store">The store, or <see langword="null"/> for <c>PICOLLO_HISTORY</c> or the default file.</param>
    /// <param name="Test">A test name or pattern, or <see langword="null"/> for every test.</param>
    /// <param name="Branch">Only this branch's runs, or <see langword="null"/> for all.</param>
    /// <param name="Newest">How many newest runs of each series to check.</param>
    /// <param name="Bisect">
    /// On a failed check, bisect the newest alerting change between its two runs' commits (<c>--bisect</c>), with this
    /// project (<c>--project</c>, null for every perf-test project); <see langword="null"/>: no bisect.
    /// </param>
    public sealed record Request(string? Store, string? Test, string? Branch, int Newest, BisectRequest? Bisect = null);

    /// <summary>What <c>--bisect</c> asks: the project whose test is measured.</summary>
    /// <param name="Project">The perf-test project, or <see langword="null"/> for every one.</param>
    public sealed record BisectRequest(string? Project);

    /// <summary>Checks, prints the alerting rows (markdown) and returns the exit code.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        if (request.Newest < 1)
        {
            errors.Profile.Out.Writer.WriteLine(HistoryReportMessages.NewestNotPositive(request.Newest));
            return ExitCodes.Error;
        }

        if (!HistoryCommandLine.TryAnalyze(errors, request.Store, request.Test, request.Branch, out var analyses, out string store))
            return ExitCodes.Error;

        var judged = analyses.Where(static a => a.Judged).ToList();
        if (judged.Count == 0)
        {
            errors.Profile.Out.Writer.WriteLine(HistoryReportMessages.CannotJudge(analyses.Count, store));
            return ExitCodes.Error;
        }

        var alerting = judged
            .Select(a => a with { Changes = [.. a.AlertsAmongNewest(request.Newest)] })
            .Where(static a => a.Changes.Count > 0)
            .ToList();
        if (alerting.Count == 0)
        {
            int young = analyses.Count - judged.Count;
            console.Profile.Out.Writer.WriteLine(HistoryReportMessages.CheckPassed(judged.Count, request.Newest, young));
            return ExitCodes.Success;
        }

        console.Profile.Out.Writer.Write(HistoryMarkdown.Write(alerting, store));
        console.Profile.Out.Writer.WriteLine();
        console.Profile.Out.Writer.WriteLine(HistoryReportMessages.CheckFailed(alerting.Sum(static a => a.Changes.Count), request.Newest));
        if (request.Bisect is { } bisect)
            Bisect(console, errors, alerting, bisect);
        return ExitCodes.Regression;
    }

    // The newest alerting change, bisected between the commits of the runs on each side of it (issue 52: the check can
    // start picollo bisect on a change point). The check's exit code stays 1: bisect says where, not whether.
    private static void Bisect(IAnsiConsole console, IAnsiConsole errors, List<HistorySeriesAnalysis> alerting, BisectRequest request)
    {
        (HistorySeriesAnalysis series, HistoryChange change) = alerting
            .SelectMany(static a => a.Changes.Select(c => (Series: a, Change: c)))
            .MaxBy(static c => c.Change.First.TimeUtc);
        if (change.Last.Commit is not { } good || change.First.Commit is not { } bad)
        {
            errors.Profile.Out.Writer.WriteLine(HistoryReportMessages.CannotBisectWithoutCommits(series.Key.Test));
            return;
        }

        // A theory's case is named Method(arguments) in the history; the test filter names the method.
        string test = series.Key.Test.Split('(')[0];
        errors.Profile.Out.Writer.WriteLine(HistoryReportMessages.Bisecting(test, series.Key.Counter, good, bad));
        Picollo.Cli.Bisect.BisectCommand.Run(console, errors, new Picollo.Cli.Bisect.BisectCommand.Request(
            good, bad, test, request.Project,
            new Ab.AbOptions { TimeBudget = TimeSpan.FromMinutes(Picollo.Cli.Bisect.BisectCommand.DefaultTimeBudgetMinutes) }));
    }
}
