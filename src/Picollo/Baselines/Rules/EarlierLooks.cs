namespace Picollo.Baselines.Rules;

/// <summary>
/// What a judgement's earlier measurements in this process showed, which its later ones are judged with (docs/VERDICTS.md,
/// "Levels"). It belongs to the judgement, not to a record: never stored, and a fresh process is judged without the
/// branchy allowance of this process's moment.
/// </summary>
/// <param name="BranchyAllowance">
/// Per time counter, the widest part of an earlier measurement's band that the host's branchy state made (log scale): the
/// state can leave a body slow for seconds after the branchy reference is back, so a later measurement is allowed it too.
/// </param>
/// <param name="Followed">
/// Per time counter, how far the body followed the branchy reference between the judgement's measurements when they showed
/// it following less than the allowance assumes (<see cref="BranchFollowing"/>).
/// </param>
internal sealed record EarlierLooks(
    IReadOnlyDictionary<string, double>? BranchyAllowance, IReadOnlyDictionary<string, BranchFollowing>? Followed);
