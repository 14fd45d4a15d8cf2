using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;

namespace Picollo.Baselines.Judging;

/// <summary>
/// A check decided and not yet written: the verdicts of one measurement and the entries its outcome writes
/// (<see cref="BaselineStore.Plan"/>). A judgement measures and decides several times and writes once, at its end, the
/// plan of the measurement it judged (<see cref="BaselineStore.Write"/>); until then nothing in the user's folder changes.
/// </summary>
/// <param name="BaselinePath">The baseline file, a full path.</param>
/// <param name="Machine">The machine the measurement ran on.</param>
/// <param name="Verdicts">One verdict per counter.</param>
/// <param name="Entries">What is written: the baseline entries in update mode, the received entries otherwise.</param>
/// <param name="FolderProblem">Why the baseline's folder cannot be used, or <see langword="null"/>.</param>
internal sealed record BaselineCheckPlan(
    string BaselinePath,
    MachineFingerprint Machine,
    IReadOnlyList<CounterVerdict> Verdicts,
    IReadOnlyList<BaselineEntry> Entries,
    string? FolderProblem)
{
    /// <summary>
    /// The result this plan stands for whatever is written, or <see langword="null"/>: a recording refused for simulated
    /// counts that differed between processes writes nothing and says so.
    /// </summary>
    public BaselineCheckResult? Refused { get; init; }
}
