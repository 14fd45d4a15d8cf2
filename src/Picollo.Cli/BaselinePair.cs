using Picollo.Baselines;
using Picollo.Baselines.Records;

namespace Picollo.Cli;

/// <summary>A test's baseline file and its received file, as found under a folder.</summary>
/// <param name="Test">The test: the baseline's path under the searched folder, without <c>.perf.json</c>.</param>
/// <param name="BaselinePath">Where the baseline is (or would be).</param>
/// <param name="ReceivedPath">The received file; null when there is none.</param>
/// <param name="Baseline">The baseline; null when there is none yet.</param>
/// <param name="Pending">The received entries the baseline does not hold.</param>
internal sealed record BaselinePair(
    string Test, string BaselinePath, string? ReceivedPath, BaselineFile? Baseline, IReadOnlyList<PendingEntry> Pending);
