namespace Picollo.Cli.History.Reports;

/// <summary>One series (machine × test × counter) and the change points found in it, in run order.</summary>
/// <param name="Key">The series.</param>
/// <param name="Points">Its runs, oldest first.</param>
/// <param name="Changes">Its change points, oldest first, acknowledged ones included.</param>
/// <param name="Judged">
/// The series had enough runs to be judged (two minimum segments); a shorter one has no change points yet, and says so.
/// </param>
internal sealed record HistorySeriesAnalysis(
    HistorySeriesKey Key, IReadOnlyList<HistoryPoint> Points, IReadOnlyList<HistoryChange> Changes, bool Judged)
{
    /// <summary>
    /// The alerting change points among the newest <paramref name="newest"/> runs: a change that old runs already show was
    /// alerted on when it was new, and a nightly job must not fail on it forever.
    /// </summary>
    public IEnumerable<HistoryChange> AlertsAmongNewest(int newest) =>
        Changes.Where(c => c.Alerts && c.Point.Index >= Points.Count - newest);
}
