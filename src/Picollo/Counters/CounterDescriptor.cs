namespace Picollo.Counters;

/// <summary>What one counter is and whether this machine can provide it.</summary>
/// <param name="Name">
/// The canonical name, as <c>perf stat -e</c> spells it where it has one (e.g. <c>branch-misses</c>, <c>task-clock</c>,
/// <c>allocated-bytes</c>).
/// </param>
/// <param name="Unit">
/// The unit of a value multiplied by <paramref name="Scale"/> (e.g. <c>events</c>, <c>ns</c>, <c>bytes</c>, <c>ticks</c>;
/// <c>Joules</c> for <c>power/energy-pkg/</c>).
/// </param>
/// <param name="Kind">The source family.</param>
/// <param name="UnavailableReason">
/// <see langword="null"/> when the counter counts; otherwise one sentence with the reason and the remedy
/// (e.g. the sysctl to run), suitable to show to a user as is.
/// </param>
/// <param name="Scale">
/// What one count is worth in <paramref name="Unit"/> (sysfs <c>.scale</c>; 1 for most counters). Values are
/// recorded as raw integer counts, exact and histogram-friendly; reports multiply by the scale to convert,
/// e.g. <c>power/energy-pkg/</c> counts units of 2.3283064365386962890625e-10 Joules.
/// </param>
/// <param name="PartialReason">
/// <see langword="null"/> when the counter counts everything it stands for; otherwise one sentence saying what it
/// misses and why while the rest counts, e.g. on a hybrid CPU <c>cycles</c> counted on <c>cpu_core</c> only because
/// <c>cpu_atom/cycles/</c> could not be opened (time the thread runs on those cores is not counted).
/// </param>
public sealed record CounterDescriptor(
    string Name,
    string Unit,
    CounterKind Kind,
    string? UnavailableReason = null,
    double Scale = 1.0,
    string? PartialReason = null)
{
    /// <summary>
    /// <see langword="true"/> when the counter counts on this machine in this mode (maybe only partly: see <see cref="PartialReason"/>).
    /// </summary>
    public bool IsAvailable => UnavailableReason is null;
}
