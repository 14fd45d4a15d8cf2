namespace Picollo.Baselines;

/// <summary>
/// How far a body's time followed the branchy reference between two measurements of the same judgement, beyond the core
/// reference loop (docs/VERDICTS.md, "What a verdict allows for"): the slope seen, and the slope the allowance then uses in
/// place of <see cref="TimeAllowance.BranchFollow"/> (the slope seen plus <see cref="Margin"/>, never more than it).
/// </summary>
/// <remarks>
/// The branchy bound assumes every body may follow the host's branchy state as a word count does, which costs a body that
/// is not branchy its sight. Beside a busy sibling core the branchy reference moved between 1,045 and 2,059 ns from one
/// measurement to the next while a multiply-add chain moved a few percent, and a 2× chain passed against a reference
/// read 1.9× slower (bench verdicts run 4, spinner / short). A judgement measures more than once when it matters (in other
/// conditions, to confirm): when the reference moved between two of its measurements, the body's own move says how far it
/// follows. A word count follows at 1-1.3 and keeps the full bound; the chain followed at about 0.2.
/// </remarks>
/// <param name="Measured">The slope seen: the body's move beyond the core loop's over the branchy reference's, log scale.</param>
/// <param name="Allowed">The slope the allowance uses: <paramref name="Measured"/> + <see cref="Margin"/>, in [0, 1.5].</param>
internal sealed record BranchFollowing(double Measured, double Allowed)
{
    /// <summary>
    /// The least move of the branchy reference beyond the core loop between two measurements that tells a slope: about 28 %
    /// (0.25 on a log scale). Within one host state the reference jitters by about ±4 % a measurement.
    /// </summary>
    public const double LeastMove = 0.25;

    /// <summary>
    /// What is added to the slope seen before it narrows the allowance (0.6): the body's floor (2-3 %) and the branchy
    /// reference (about 4 %) jitter from one measurement to the next, so over the least move a word count's slope (1-1.3)
    /// reads within about ±0.35 at 1σ; with the margin a reading 1.5σ low still keeps about the slope it has, and a chain
    /// (about 0.2) keeps 0.8 of it.
    /// </summary>
    public const double Margin = 0.6;

    /// <summary>
    /// How far apart, in cores, other processes' load may lie between two measurements for the pair to tell a slope (0.25). A
    /// neighbour that starts or stops between them moves the body by up to +17-47 % for reasons of its own; one that kept the
    /// machine as busy through both (another process spinning for minutes, bench verdicts' process mode) moves neither, and
    /// there the host's allocation and branchy states moved together (the allocation reference 12.6 → 20 ns, the branchy one
    /// 1,040 → 1,470 ns) with an allocating body following only the first.
    /// </summary>
    public const double SameLoad = 0.25;

    /// <summary>
    /// The slope below which a recording keeps the host's slower branchy state it was taken in rather than move to the
    /// machine's fast level (0.75, half of <see cref="TimeAllowance.BranchFollow"/>). Recorded at the fast level, a body
    /// that follows at slope s loses sight of (1.5 − s) times the reference's move whenever the host runs branchy code
    /// slower again (the bound assumes 1.5); recorded in the slower state, it loses s times that move while the host runs
    /// faster (it reads faster there), and nothing in the slower state. The slower state costs less below 0.75.
    /// </summary>
    public const double RecordInSlowerState = TimeAllowance.BranchFollow / 2;

    /// <summary>
    /// The slope of <paramref name="counter"/>'s time between two measurements against the branchy reference's move beyond
    /// the core loop, when that move is at least <see cref="TimeAllowance.BranchTolerance"/> (10 %) either way and other
    /// processes left them alike; otherwise <see langword="null"/>.
    /// </summary>
    /// <param name="earlier">One measurement.</param>
    /// <param name="later">The other.</param>
    /// <param name="counter">The time counter.</param>
    /// <param name="statistic">The statistic its rule judges.</param>
    /// <returns>The slope, or <see langword="null"/>.</returns>
    public static double? Slope(BaselineRecord earlier, BaselineRecord later, string counter, BaselineStatistic statistic)
    {
        ArgumentNullException.ThrowIfNull(earlier);
        ArgumentNullException.ThrowIfNull(later);
        return Moves(earlier, later, counter, statistic) is (double general, double branch, double body)
            && Math.Abs(branch) >= Math.Log(1 + TimeAllowance.BranchTolerance)
                ? (body - general) / branch
                : null;
    }

    /// <summary>
    /// The slope of <paramref name="counter"/>'s time against the branchy reference beyond the core loop: the largest over the
    /// pairs of <paramref name="looks"/> whose branchy reference moved <see cref="LeastMove"/> or more, so a body is narrowed
    /// only when every such pair shows it not following (a branchy body's own level can switch between two measurements and
    /// cancel a follow in one pair). <see langword="null"/> when no pair moved that far, a reference or the statistic is
    /// missing, or the slope allows the full bound.
    /// </summary>
    /// <param name="looks">The judgement's measurements of final code, each as compared (their references, other processes'
    /// load and counters); a pair counts when other processes' loads lay within <see cref="SameLoad"/>.</param>
    /// <param name="counter">The time counter.</param>
    /// <param name="statistic">The statistic its rule judges (the floor, P10).</param>
    /// <returns>The following, or <see langword="null"/>.</returns>
    public static BranchFollowing? Learn(IReadOnlyList<BaselineRecord> looks, string counter, BaselineStatistic statistic)
    {
        ArgumentNullException.ThrowIfNull(looks);
        double slope = double.NaN;
        for (int i = 0; i < looks.Count; i++)
        {
            for (int j = i + 1; j < looks.Count; j++)
            {
                if (Moves(looks[i], looks[j], counter, statistic) is not (double general, double branch, double body))
                    continue;
                if (Math.Abs(branch) < LeastMove)
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
        double allowed = Math.Clamp(slope + Margin, 0, TimeAllowance.BranchFollow);
        return allowed < TimeAllowance.BranchFollow ? new BranchFollowing(slope, allowed) : null;
    }

    // Whether other processes left the two measurements alike: loads within SameLoad, or both unknown (no /proc/stat).
    private static bool SameConditions(double before, double after) =>
        double.IsNaN(before) || double.IsNaN(after) ? double.IsNaN(before) && double.IsNaN(after) : Math.Abs(after - before) <= SameLoad;

    // Between two measurements, on a log scale: the general move the allowance answers first (the allocation reference's where
    // both timed it, as TimeAllowance judges an allocating body, the core loop's otherwise), the branchy reference's move beyond
    // the core loop's, and the counter's statistic's; null when any is missing.
    private static (double General, double Branch, double Body)? Moves(
        BaselineRecord earlier, BaselineRecord later, string counter, BaselineStatistic statistic)
    {
        if (earlier.MachineSpeed is not > 0 || later.MachineSpeed is not > 0 || earlier.BranchSpeed is not > 0
            || later.BranchSpeed is not > 0 || earlier.Find(counter) is not { } a || later.Find(counter) is not { } b
            || !SameConditions(earlier.OtherProcessesCores, later.OtherProcessesCores))
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
