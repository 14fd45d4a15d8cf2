namespace Picollo.Cli.History;

/// <summary>A change point marked intended: it stops alerting, and the segment after it is the series' new normal.</summary>
/// <param name="MachineKey">The series' machine key.</param>
/// <param name="Test">The series' test.</param>
/// <param name="Counter">The series' counter.</param>
/// <param name="Commit">The commit of the change point's first run.</param>
/// <param name="Note">Why the change is intended.</param>
/// <param name="TimeUtc">When it was acknowledged.</param>
internal sealed record HistoryAcknowledgement(string MachineKey, string Test, string Counter, string Commit, string Note, DateTime TimeUtc);
