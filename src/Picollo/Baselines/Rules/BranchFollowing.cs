using Picollo.Baselines.Records;
namespace Picollo.Baselines.Rules;

/// <summary>
/// How far a body's time followed the branchy reference between two measurements of the same judgement, beyond the core
/// reference loop (docs/VERDICTS.md, "What a verdict allows for"): the slope seen, and the slope the allowance then uses in
/// place of <see cref="JudgementPolicy.BranchFollow"/> (the slope seen plus <see cref="JudgementPolicy.BranchFollowMargin"/>,
/// never more than it).
/// </summary>
/// <remarks>
/// The branchy bound assumes every body may follow the host's branchy state as a word count does, which costs a body that
/// is not branchy its sight: the reference can move 2× between measurements while a multiply-add chain moves a few
/// percent (docs/VERDICTS.md, "Levels"). A judgement measures more than once when it matters (in other
/// conditions, to confirm): when the reference moved between two of its measurements, the body's own move says how far it
/// follows. A word count follows at 1-1.3 and keeps the full bound; the chain followed at about 0.2.
/// </remarks>
/// <param name="Measured">The slope seen: the body's move beyond the core loop's over the branchy reference's, log scale.</param>
/// <param name="Allowed">The slope the allowance uses: <paramref name="Measured"/> +
/// <see cref="JudgementPolicy.BranchFollowMargin"/>, in [0, 1.5].</param>
internal sealed record BranchFollowing(double Measured, double Allowed)
{
    /// <summary>
    /// The slope of <paramref name="counter"/>'s time between two measurements against the branchy reference's move beyond
    /// the core loop, when that move is at least <see cref="JudgementPolicy.BranchTolerance"/> (10 %) either way and other
    /// processes left them alike; otherwise <see langword="null"/>.
    /// </summary>
    /// <param name="earlier">One measurement.</param>
    /// <param name="later">The other.</param>
    /// <param name="counter">The time counter.</param>
    /// <param name="statistic">The statistic its rule judges.</param>
    /// <param name="judgement">The rules' numbers; <see cref="JudgementPolicy.Default"/> when <see langword="null"/>.</param>
    /// <returns>The slope, or <see langword="null"/>.</returns>
    public static double? Slope(
        BaselineRecord earlier, BaselineRecord later, string counter, BaselineStatistic statistic, JudgementPolicy? judgement = null)
    {
        ArgumentNullException.ThrowIfNull(earlier);
        ArgumentNullException.ThrowIfNull(later);
        judgement ??= JudgementPolicy.Default;
        return Moves(earlier, later, counter, statistic, judgement) is (double general, double branch, double body)
            && Math.Abs(branch) >= Math.Log(1 + judgement.BranchTolerance)
                ? (body - general) / branch
                : null;
    }

    /// <summary>
    /// The slope of <paramref name="counter"/>'s time against the branchy reference beyond the core loop: the largest
    /// over the pairs of <paramref name="looks"/> whose branchy reference moved
    /// <see cref="JudgementPolicy.BranchLeastMove"/> or more, so a body is narrowed only when every such pair shows it
    /// not following (a branchy body's own level can switch between two measurements and cancel a follow in one pair).
    /// <see langword="null"/> when no pair moved that far, a reference or the statistic is missing, or the slope allows
    /// the full bound.
    /// </summary>
    /// <param name="looks">The judgement's measurements of final code, each as compared (their references, other processes'
    /// load and counters); a pair counts when other processes' loads lay within
    /// <see cref="JudgementPolicy.BranchSameLoad"/>.</param>
    /// <param name="counter">The time counter.</param>
    /// <param name="statistic">The statistic its rule judges (the floor, P10).</param>
    /// <param name="judgement">The rules' numbers; <see cref="JudgementPolicy.Default"/> when <see langword="null"/>.</param>
    /// <returns>The following, or <see langword="null"/>.</returns>
    public static BranchFollowing? Learn(
        IReadOnlyList<BaselineRecord> looks, string counter, BaselineStatistic statistic, JudgementPolicy? judgement = null)
    {
        ArgumentNullException.ThrowIfNull(looks);
        judgement ??= JudgementPolicy.Default;
        double slope = double.NaN;
        for (int i = 0; i < looks.Count; i++)
        {
            for (int j = i + 1; j < looks.Count; j++)
            {
                if (Moves(looks[i], looks[j], counter, statistic, judgement) is not (double general, double branch, double body))
                    continue;
                if (Math.Abs(branch) < judgement.BranchLeastMove)
                    continue;
                // The body follows what the allowance's first stage answers for it (the core loop, or the allocation reference
                // for a body that allocates) as all its code does; what it moved beyond that, over what the branchy reference
                // moved beyond the core loop, is how far it follows the host's branchy state.
                double pair = (body - general) / branch;
                slope = double.IsNaN(slope) ? pair : Math.Max(slope, pair);
            }
        }

        if (double.IsNaN(slope))
            return null;
        double allowed = Math.Clamp(slope + judgement.BranchFollowMargin, 0, judgement.BranchFollow);
        return allowed < judgement.BranchFollow ? new BranchFollowing(slope, allowed) : null;
    }

    // Whether other processes left the two measurements alike: loads within JudgementPolicy.BranchSameLoad, or both unknown
    // (no /proc/stat).
    private static bool SameConditions(double before, double after, JudgementPolicy judgement) =>
        double.IsNaN(before) || double.IsNaN(after)
            ? double.IsNaN(before) && double.IsNaN(after)
            : Math.Abs(after - before) <= judgement.BranchSameLoad;

    // Between two measurements, on a log scale: the general move the allowance answers first (the allocation reference's where
    // both timed it, as TimeAllowance judges an allocating body, the core loop's otherwise), the branchy reference's move beyond
    // the core loop's, and the counter's statistic's; null when any is missing.
    private static (double General, double Branch, double Body)? Moves(
        BaselineRecord earlier, BaselineRecord later, string counter, BaselineStatistic statistic, JudgementPolicy judgement)
    {
        if (earlier.MachineSpeed is not > 0 || later.MachineSpeed is not > 0 || earlier.BranchSpeed is not > 0
            || later.BranchSpeed is not > 0 || earlier.Find(counter) is not { } a || later.Find(counter) is not { } b
            || !SameConditions(earlier.OtherProcessesCores, later.OtherProcessesCores, judgement))
        {
            return null;
        }

        double before = a.PerOperation.Get(statistic), after = b.PerOperation.Get(statistic);
        if (!(before > 0) || !(after > 0) || !double.IsFinite(before) || !double.IsFinite(after))
            return null;
        double core = Math.Log(later.MachineSpeed.Value / earlier.MachineSpeed.Value);
        double general = earlier.AllocationSpeed is > 0 && later.AllocationSpeed is > 0
            ? Math.Log(later.AllocationSpeed.Value / earlier.AllocationSpeed.Value)
            : core;
        return (general, Math.Log(later.BranchSpeed.Value / earlier.BranchSpeed.Value) - core, Math.Log(after / before));
    }
}
