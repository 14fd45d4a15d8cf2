namespace Picollo.Cli.History;

/// <summary>One run's value in a series, as the change-point detector reads it.</summary>
/// <param name="RunId">The run's id in the store.</param>
/// <param name="Commit">The run's commit, when known.</param>
/// <param name="Branch">The run's branch, when known.</param>
/// <param name="TimeUtc">When the run was added.</param>
/// <param name="Value">
/// The value judged: P10 per operation for time-like counters, the mean for the others (<see cref="HistoryResult.SeriesValue"/>).
/// </param>
/// <param name="P50">The median per operation.</param>
/// <param name="Mean">The mean per operation.</param>
internal sealed record HistoryPoint(long RunId, string? Commit, string? Branch, DateTime TimeUtc, double Value, double P50, double Mean);
