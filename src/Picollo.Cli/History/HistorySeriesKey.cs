namespace Picollo.Cli.History;

/// <summary>
/// One series of the history: a counter of a test on one machine key, the unit it is counted in, and whether it is exact.
/// </summary>
/// <param name="MachineKey">The machine key of the runs.</param>
/// <param name="Test">The test's name, as its result file names it.</param>
/// <param name="Counter">The counter's name.</param>
/// <param name="Unit">The counter's unit.</param>
/// <param name="Exact">Whether its values are exact (see <see cref="HistoryResult.Exact"/>): a change is the first differing value.</param>
internal sealed record HistorySeriesKey(string MachineKey, string Test, string Counter, string Unit, bool Exact);
