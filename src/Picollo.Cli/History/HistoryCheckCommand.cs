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
    public sealed record Request(string? Store, string? Test, string? Branch, int Newest);

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
        return ExitCodes.Regression;
    }
}
