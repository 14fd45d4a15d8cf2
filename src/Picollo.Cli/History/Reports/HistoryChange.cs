using Picollo.Cli.History.ChangePoints;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// A change point of one series, placed on the runs around it: the last run of the old segment and the first of the new
/// one (whose commit is the one the change is pinned to), and the acknowledgement that marked it intended, if any.
/// </summary>
/// <param name="Point">What the detector found (the index is the first run of the new segment).</param>
/// <param name="Last">The last run before the change.</param>
/// <param name="First">The first run after it.</param>
/// <param name="Acknowledgement">The note that marked it intended; <see langword="null"/> while it alerts.</param>
internal sealed record HistoryChange(ChangePoint Point, HistoryPoint Last, HistoryPoint First, HistoryAcknowledgement? Acknowledgement)
{
    /// <summary>
    /// The values grew. Every counter Picollo records is lower-is-better (time, cycles, instructions, misses, faults, bytes),
    /// so growth is a regression and shrinking an improvement.
    /// </summary>
    public bool IsRegression => Point.Magnitude > 0;

    /// <summary>Neither acknowledged nor an improvement: what <c>picollo history check</c> alerts on.</summary>
    public bool Alerts => Acknowledgement is null && IsRegression;
}
