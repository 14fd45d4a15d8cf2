namespace Picollo.Cli.History.Reports;

/// <summary>One series (machine × test × counter) and the change points found in it, in run order.</summary>
/// <param name="Key">The series.</param>
/// <param name="Points">Its runs, oldest first.</param>
/// <param name="Changes">Its change points, oldest first, acknowledged ones included.</param>
/// <param name="Judged">
/// The runs since the newest acknowledged change (all runs, without one) are enough to find a change in: two minimum
/// segments, or two runs of an exact counter. A shorter stretch has no change point yet, and the report says so.
/// </param>
/// <param name="Since">Where the newest stretch starts: the index of the newest acknowledged change, 0 without one.</param>
internal sealed record HistorySeriesAnalysis(
    HistorySeriesKey Key, IReadOnlyList<HistoryPoint> Points, IReadOnlyList<HistoryChange> Changes, bool Judged, int Since)
{
    /// <summary>
    /// The alerting change points among the newest <paramref name="newest"/> runs: a change that old runs already show was
    /// alerted on when it was new, and a nightly job must not fail on it forever.
    /// </summary>
    public IEnumerable<HistoryChange> AlertsAmongNewest(int newest) =>
        Changes.Where(c => c.Alerts && c.Point.Index >= Points.Count - newest);
}
