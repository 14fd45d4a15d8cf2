using System.Globalization;

namespace Picollo.Cli.History.Reports;

/// <summary>How the history's reports write a change, a commit and a run, the same in markdown, HTML and the SVG labels.</summary>
internal static class HistoryText
{
    /// <summary>A relative change as a signed percentage, "+10.2 %", or "from 0" when the old value was 0.</summary>
    public static string Magnitude(double magnitude) =>
        double.IsFinite(magnitude) ? (magnitude * 100).ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + " %" : "from 0";

    /// <summary>A commit's first 7 characters, as git abbreviates it.</summary>
    public static string Commit(string? commit) => commit is null ? "(no commit)" : commit[..Math.Min(7, commit.Length)];

    /// <summary>A value per operation as the verdict lines print it.</summary>
    public static string Number(double value) => Picollo.Baselines.Rules.CounterVerdict.Number(value);

    /// <summary>"regression", "improvement" or "intended: NOTE".</summary>
    public static string Status(HistoryChange change) =>
        change.Acknowledgement is { } a ? $"intended: {a.Note}" : change.IsRegression ? "regression" : "improvement";

    /// <summary>The run a change is pinned to: its commit and the day it ran.</summary>
    public static string Run(HistoryPoint point) =>
        $"{Commit(point.Commit)} ({point.TimeUtc.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture)} UTC)";

    /// <summary>The segments' values on each side of a change, "1,204 → 1,328 ns".</summary>
    public static string BeforeAfter(HistoryChange change, string unit) =>
        $"{Number(change.Point.Before)} → {Number(change.Point.After)} {unit}";

    /// <summary>The two runs on each side of a change, "a1b2c3d (2026-11-30 03:00 UTC) → e4f5a6b (2026-12-01 03:00 UTC)".</summary>
    public static string Around(HistoryChange change) => $"{Run(change.Last)} → {Run(change.First)}";

    /// <summary>A machine key as the tables show it: the first 12 characters, enough to tell a team's runners apart.</summary>
    public static string Machine(string key) => key.Length <= 12 ? key : key[..12];
}
