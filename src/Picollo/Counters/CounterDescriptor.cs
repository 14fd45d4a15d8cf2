namespace Picollo.Counters;

/// <summary>What one counter is and whether this machine can provide it.</summary>
/// <param name="Name">The canonical name, as <c>perf stat -e</c> spells it where it has one (e.g. <c>branch-misses</c>, <c>task-clock</c>, <c>allocated-bytes</c>).</param>
/// <param name="Unit">The unit of one count (e.g. <c>events</c>, <c>ns</c>, <c>bytes</c>, <c>ticks</c>).</param>
/// <param name="Kind">The source family.</param>
/// <param name="UnavailableReason">
/// <see langword="null"/> when the counter counts; otherwise one sentence with the reason and the remedy
/// (e.g. the sysctl to run), suitable to show to a user as is.
/// </param>
public sealed record CounterDescriptor(string Name, string Unit, CounterKind Kind, string? UnavailableReason = null)
{
    /// <summary><see langword="true"/> when the counter counts on this machine in this mode.</summary>
    public bool IsAvailable => UnavailableReason is null;
}
