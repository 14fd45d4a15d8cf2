namespace Picollo.Cli.History;

/// <summary>One run appended to the results history: where and what was measured, and when it was added.</summary>
/// <param name="MachineKey">The machine key the baselines use (<c>MachineFingerprint</c>'s id, as <c>picollo doctor</c> shows it).</param>
/// <param name="Runtime">The .NET runtime the tool ran on (<c>RuntimeInformation.FrameworkDescription</c>).</param>
/// <param name="Commit">The commit measured, or <see langword="null"/> outside a git repository.</param>
/// <param name="Parent">Its first parent, or <see langword="null"/> when unknown (a root commit, no repository).</param>
/// <param name="Branch">The branch, or <see langword="null"/> when unknown (a detached checkout, no repository).</param>
/// <param name="TimeUtc">When the run was added, in UTC: the series' order.</param>
internal sealed record HistoryRun(string MachineKey, string Runtime, string? Commit, string? Parent, string? Branch, DateTime TimeUtc);
