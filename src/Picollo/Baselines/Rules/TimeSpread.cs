using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;

namespace Picollo.Baselines.Rules;

/// <summary>
/// The levels of a body's time across processes (docs/VERDICTS.md, "Levels"): which recorded level a baseline keeps and
/// how far the others ranged. A short branchy body runs at one of several speeds per process and switches within one:
/// <c>Words.Count</c> over 64 words read a floor of 1,062 to 2,155 ticks in 16 fresh processes of one VM, and 1,040 →
/// 1,389 inside one, the machine's reference loop steady throughout. No statistic of one process can tell such a level
/// from a change; a recording that measured several processes can: it keeps the fastest level (the baseline's record) and
/// the ratio of the slowest to it (<see cref="RecordingQuality.Spread"/>), and a verdict fails only beyond the slowest.
/// </summary>
/// <remarks>
/// Each fresh process contributes one level: the fastest of its measurements, so a single disturbed measurement (one
/// read +71 % beside a busy core, the next back to normal) is not a level; this process's own recording runs count
/// where two of them agree. For a body that allocates, each level is first scaled to the kept level's allocation speed,
/// as verdicts correct or bound by the same ratio (<see cref="TimeAllowance"/>): an allocation episode is answered
/// there, not allowed for twice. A level whose exact counters differ from the first process's (other code, a body still
/// at tier 0), that ran while other processes kept the machine busy, while the host ran branchy code at another speed
/// (verdicts bound that by the branchy reference, so it is not allowed for twice), or, for a body that does not
/// allocate, at another machine speed, is left out and named.
/// </remarks>
internal static class TimeSpread
{
    /// <summary>The levels combined, and what was left out.</summary>
    /// <param name="Record">The record to store: the fastest level's, each time counter's recording with the processes
    /// and the spread.</param>
    /// <param name="Excluded">One sentence per level left out, with why.</param>
    /// <param name="Processes">How many processes the stored spread stands for: the levels that joined it
    /// (<see cref="RecordingQuality.Processes"/>).</param>
    internal sealed record Combined(BaselineRecord Record, IReadOnlyList<string> Excluded, int Processes);

    /// <summary>
    /// Combines the levels of several processes into the record a baseline stores. The first level is this process's
    /// steady recording; its counters' recordings (runs, drift) carry over to the kept level.
    /// </summary>
    /// <param name="levels">One record per process (the first is this process's); a record may already hold a spread of
    /// its own (an entry extended with <c>add</c>).</param>
    /// <param name="policy">The verdict rules: the time counters' statistic and threshold.</param>
    /// <param name="firstProcessOthers">
    /// The first process's other measurements (a recording's runs besides the kept one): they widen the spread where they
    /// ran slower, as a level of that process, and are never kept nor counted as processes.
    /// </param>
    /// <returns>The record to store, and the levels left out.</returns>
    public static Combined Combine(
        IReadOnlyList<BaselineRecord> levels, VerdictPolicy policy, IReadOnlyList<BaselineRecord>? firstProcessOthers = null)
    {
        ArgumentNullException.ThrowIfNull(levels);
        ArgumentNullException.ThrowIfNull(policy);
        if (levels.Count == 0)
            throw new ArgumentException("At least one level is needed.", nameof(levels));

        BaselineRecord first = levels[0];

        // The host's fast branchy state is the reference: levels measured in a slower one are left out (verdicts bound that
        // state by the branchy reference), and when this process recorded in the slow state, a fresh process in the fast one
        // is what the baseline keeps.
        double? fastBranch = levels.Where(level => Exclusion(first, level, policy, branch: false) is null)
            .Select(static level => level.BranchSpeed).Where(static b => b is > 0).DefaultIfEmpty(null).Min();
        (List<BaselineRecord> usable, List<string> excluded) = Usable(levels, policy, fastBranch);
        BaselineRecord[] others =
            [.. (firstProcessOthers ?? []).Where(level => Exclusion(first, level, policy, fastBranch: fastBranch) is null)];
        string[] time = [.. TimeCounters(first, policy)];
        JoinBranchyLevelsOfABodyThatDoesNotFollow(levels, usable, excluded, policy, fastBranch, time);
        BaselineRecord kept = usable.MinBy(level => Score(level, time, policy))!;
        int processes = usable.Sum(static level => level.RecordedProcesses);
        var counters = new List<BaselineCounter>(kept.Counters.Count);
        foreach (BaselineCounter counter in kept.Counters)
        {
            if (!time.Contains(counter.Name, StringComparer.Ordinal) || Statistic(counter, policy) is not { } statistic)
            {
                counters.Add(counter);
                continue;
            }

            RecordingQuality own = counter.Recording ?? first.Find(counter.Name)?.Recording ?? new RecordingQuality(1, 0, null);
            CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
            double fastest = counter.PerOperation.Get(statistic);
            double agreement = Agreement(rule, own.Drift, policy.Judgement);
            double slowest = Math.Max(
                SlowestLevel(counter.Name, statistic, fastest, kept, usable),
                SlowestAgreeingRuns(counter.Name, statistic, kept, [.. others, first], agreement));
            double spread = fastest > 0 ? Math.Max(1, slowest / fastest) : 1;

            // Levels within the run-to-run drift are not levels: every verdict counts that drift in σ already, and a spread of
            // +1 % in every verdict line would say nothing. Rounded as stored (three decimals), so a re-recording at the same
            // levels does not rewrite noise digits.
            spread = Math.Log(spread) <= Math.Max(rule.Drift, own.Drift) ? 1 : Math.Round(spread, 3);
            double detects = SpreadDetectableChange(counter, statistic, own.Drift, rule, spread, policy.Judgement);
            counters.Add(counter with { Recording = own with { Processes = processes, Spread = spread, DetectableChange = detects } });
        }

        return new Combined(kept with { Counters = counters }, excluded, processes);
    }

    // Levels left out only for the host's slow branchy state join after all when one of them ran the body at a joined
    // level's speed or faster (within JudgementPolicy.JoinedLevelTolerance, 10 %, on every time counter): that state
    // did not slow this body, so its levels there are its own, and leaving them out loses a level unchanged code later
    // runs at (docs/VERDICTS.md, "Levels"). The fastest such level is kept under the fast state's branchy speed; a body
    // that follows the state runs faster still in the fast one.
    private static void JoinBranchyLevelsOfABodyThatDoesNotFollow(
        IReadOnlyList<BaselineRecord> levels, List<BaselineRecord> usable, List<string> excluded, VerdictPolicy policy,
        double? fastBranch, string[] time)
    {
        if (fastBranch is not > 0 || time.Length == 0)
            return;

        BaselineRecord first = levels[0];
        int[] branchOnly =
        [
            .. Enumerable.Range(0, levels.Count)
                .Where(i => !usable.Contains(levels[i]) && Exclusion(first, levels[i], policy, branch: false) is null),
        ];
        if (!branchOnly.Any(i => AtJoinedSpeed(levels[i], usable, policy, time)))
            return;

        foreach (int i in branchOnly)
        {
            usable.Add(levels[i] with { BranchSpeed = fastBranch });
            string process = string.Create(CultureInfo.InvariantCulture, $"process {i + 1}:");
            excluded.RemoveAll(sentence => sentence.StartsWith(process, StringComparison.Ordinal));
        }
    }

    // Whether a level ran every time counter within JudgementPolicy.JoinedLevelTolerance (10 %) of the fastest joined level,
    // or faster.
    private static bool AtJoinedSpeed(BaselineRecord level, List<BaselineRecord> usable, VerdictPolicy policy, string[] time)
    {
        foreach (string name in time)
        {
            if (level.Find(name) is not { } counter || Statistic(counter, policy) is not { } statistic)
                return false;
            double value = counter.PerOperation.Get(statistic);
            double joined = usable.Select(u => u.Find(name) is { } c ? c.PerOperation.Get(statistic) : double.NaN)
                .Where(static v => v > 0).DefaultIfEmpty(double.NaN).Min();
            // NaN on either side (no value) compares false: not at the joined speed.
            if (!(value > 0 && value <= joined * (1 + policy.Judgement.JoinedLevelTolerance)))
                return false;
        }

        return true;
    }

    // The levels that join the spread, and one sentence per level left out; this process's own level when none joins.
    private static (List<BaselineRecord> Usable, List<string> Excluded) Usable(
        IReadOnlyList<BaselineRecord> levels, VerdictPolicy policy, double? fastBranch)
    {
        BaselineRecord first = levels[0];
        var usable = new List<BaselineRecord>();
        var excluded = new List<string>();
        for (int i = 0; i < levels.Count; i++)
        {
            if (Exclusion(first, levels[i], policy, fastBranch: fastBranch) is { } reason)
                excluded.Add(string.Create(CultureInfo.InvariantCulture, $"process {i + 1}: {reason}"));
            else
                usable.Add(levels[i]);
        }

        if (usable.Count == 0)
            usable.Add(first);
        return (usable, excluded);
    }

    // The slowest level of a counter over the processes that joined (a level's own spread included), scaled to the kept
    // level's allocation speed; at least the kept level's own value.
    private static double SlowestLevel(
        string counter, BaselineStatistic statistic, double fastest, BaselineRecord kept, List<BaselineRecord> usable)
    {
        double slowest = fastest;
        foreach (BaselineRecord level in usable)
        {
            if (level.Find(counter) is { } other && other.PerOperation.Get(statistic) is > 0 and var value)
                slowest = Math.Max(slowest, value * (other.Recording?.Spread ?? 1) / AllocationRatio(kept, level));
        }

        return slowest;
    }

    // This process's other runs are levels only where two of them agree: one run a collection or a host blip slowed is a
    // moment, not a speed the body takes (1,040 → 1,389 twice in a row is; 100, 140, 101 is not). The slowest value two
    // runs agree on (the faster of each agreeing pair), or 0 when no two agree.
    private static double SlowestAgreeingRuns(
        string counter, BaselineStatistic statistic, BaselineRecord kept, BaselineRecord[] records, double agreement)
    {
        double[] runs =
        [
            .. records
                .Select(level => level.Find(counter) is { } c && c.PerOperation.Get(statistic) is > 0 and var v
                    ? v / AllocationRatio(kept, level)
                    : double.NaN)
                .Where(double.IsFinite),
        ];
        double slowest = 0;
        for (int i = 0; i < runs.Length; i++)
        {
            for (int j = i + 1; j < runs.Length; j++)
            {
                if (Math.Abs(Math.Log(runs[i] / runs[j])) <= agreement)
                    slowest = Math.Max(slowest, Math.Min(runs[i], runs[j]));
            }
        }

        return slowest;
    }

    /// <summary>
    /// What update mode with <c>PICOLLO_UPDATE_BASELINES=add</c> writes for <paramref name="measured"/>: this machine's
    /// entry with the measurement's level joined to its spread (the fastest level kept, the spread widened when the
    /// measurement ran slower than the slowest recorded); the measurement alone, replacing the entry, when an exact
    /// counter differs (the code changed, so the recorded levels are stale) or there is no entry yet; the entry unchanged
    /// when the measurement measured other counters or could not join (a busy machine, another machine speed).
    /// </summary>
    /// <param name="existing">This machine's entry, or <see langword="null"/>.</param>
    /// <param name="measured">The measurement as an entry.</param>
    /// <param name="policy">The verdict rules.</param>
    /// <returns>The entry to write and what happened, as the end of a sentence ("widened the spread to 1.34×").</returns>
    public static (BaselineEntry Entry, string Outcome) Extend(BaselineEntry? existing, BaselineEntry measured, VerdictPolicy policy)
    {
        ArgumentNullException.ThrowIfNull(measured);
        ArgumentNullException.ThrowIfNull(policy);
        if (existing is null)
            return (measured, "recorded, as there was no entry to extend");

        IReadOnlyList<CounterVerdict> verdicts =
            BaselineComparer.Compare(new BaselineFile([existing]), measured.Machine, measured.Record, policy);
        CounterVerdict[] exact =
        [
            .. verdicts.Where(static v => v.Mode == VerdictMode.Exact
                && v.Status is CounterVerdictStatus.Regressed or CounterVerdictStatus.Improved),
        ];
        if (exact.Length > 0)
            return (measured, BaselineMessages.ReplacedNotExtended(string.Join("; ", exact.Select(static v => v.Text))));

        // A level is another speed of the same measurement: a run with other counters (no hardware counters this time) would
        // leave some counters with a spread and others without.
        string measuredNames = string.Join(", ", measured.Record.Counters.Select(static c => c.Name).Order(StringComparer.Ordinal));
        string heldNames = string.Join(", ", existing.Record.Counters.Select(static c => c.Name).Order(StringComparer.Ordinal));
        if (measuredNames != heldNames)
            return (existing, BaselineMessages.NotExtendedOtherCounters(measuredNames, heldNames));

        Combined combined = Combine([existing.Record, measured.Record], policy);
        if (combined.Excluded.Count > 0)
        {
            string excluded = combined.Excluded[0];
            string reason = excluded[(excluded.IndexOf(':', StringComparison.Ordinal) + 2)..];
            return (existing, BaselineMessages.NotExtendedOtherConditions(reason));
        }

        string spreads = Spreads(combined.Record, policy);
        bool same = spreads == Spreads(existing.Record, policy);
        return (existing with { Record = combined.Record }, BaselineMessages.Extended(spreads, same));
    }

    /// <summary>Whether any time counter of a combination holds a spread: the body took more than one level.</summary>
    /// <param name="combined">A combination.</param>
    /// <param name="policy">The rules.</param>
    /// <returns><see langword="true"/> when a time counter's recorded spread is above 1.</returns>
    public static bool HasLevels(Combined combined, VerdictPolicy policy)
    {
        ArgumentNullException.ThrowIfNull(combined);
        ArgumentNullException.ThrowIfNull(policy);
        return TimeCounters(combined.Record, policy).Any(name => combined.Record.Find(name)!.Recording is { Spread: > 1 });
    }

    /// <summary>
    /// Whether one more level moved a combination: a time counter's kept (fastest) level or its slowest level changed by
    /// more than two agreeing runs may differ (as <see cref="Combine"/> agrees runs: the rule's or the recording's drift,
    /// at least half the threshold), or another process joined where fewer than two had.
    /// </summary>
    /// <param name="before">The combination without the new level.</param>
    /// <param name="after">The combination with it.</param>
    /// <param name="policy">The rules.</param>
    /// <returns><see langword="true"/> when the new level showed a speed the recording had not seen.</returns>
    public static bool FoundNewLevel(Combined before, Combined after, VerdictPolicy policy)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        ArgumentNullException.ThrowIfNull(policy);
        if (before.Processes < 2 && after.Processes > before.Processes)
            return true;
        foreach (string name in TimeCounters(after.Record, policy))
        {
            // A counter only one side measured is not a level of it: the levels' counters are the first process's.
            if (before.Record.Find(name) is not { } was || after.Record.Find(name) is not { } now
                || Statistic(now, policy) is not { } statistic)
            {
                continue;
            }

            double fastestBefore = was.PerOperation.Get(statistic);
            double fastestNow = now.PerOperation.Get(statistic);
            if (fastestBefore <= 0 || fastestNow <= 0)
                continue;

            CounterVerdictRule rule = policy.GetRule(name, now.Kind);
            double drift = Math.Max(was.Recording?.Drift ?? 0, now.Recording?.Drift ?? 0);
            double agreement = Agreement(rule, drift, policy.Judgement);
            double slowestBefore = fastestBefore * (was.Recording?.Spread ?? 1);
            double slowestNow = fastestNow * (now.Recording?.Spread ?? 1);
            if (Math.Abs(Math.Log(fastestNow / fastestBefore)) > agreement || Math.Abs(Math.Log(slowestNow / slowestBefore)) > agreement)
                return true;
        }

        return false;
    }

    // How far apart (log scale) two runs may lie and still be one level: the rule's or the recording's drift, at least half
    // the threshold (JudgementPolicy.AgreementShareOfThreshold; a recording's runs agree within the lesser of the two).
    private static double Agreement(CounterVerdictRule rule, double drift, JudgementPolicy judgement) =>
        Math.Max(Math.Max(rule.Drift, drift), Math.Log(1 + (rule.MinRelativeChange * judgement.AgreementShareOfThreshold)));

    // Each time counter's recorded spread, e.g. "tsc 1.37×, cycles 1.2×".
    private static string Spreads(BaselineRecord record, VerdictPolicy policy) => string.Join(", ", TimeCounters(record, policy)
        .Select(name => string.Create(CultureInfo.InvariantCulture, $"{name} {record.Find(name)!.Recording?.Spread ?? 1:0.###}×")));

    /// <summary>
    /// What a baseline with <paramref name="spread"/> lets a verdict detect, from its fastest level: the spread, then
    /// the statistical margin.
    /// </summary>
    /// <param name="counter">The kept counter.</param>
    /// <param name="statistic">The statistic judged.</param>
    /// <param name="drift">The recording's drift.</param>
    /// <param name="rule">The counter's rule.</param>
    /// <param name="spread">The recorded spread (1 for one level).</param>
    /// <param name="judgement">The rules' numbers.</param>
    /// <returns>The relative change, e.g. 0.072.</returns>
    public static double SpreadDetectableChange(
        BaselineCounter counter,
        BaselineStatistic statistic,
        double drift,
        CounterVerdictRule rule,
        double spread,
        JudgementPolicy judgement) =>
        BaselineComparer.DetectableChange(
            BaselineComparer.StandardError(counter, statistic),
            Math.Max(rule.Drift, drift),
            NormalQuantile.Of(rule.Confidence),
            judgement,
            spread > 1 ? TimeAllowance.None with { High = Math.Log(spread) } : null);

    /// <summary>The time-like statistical counters of a record, by the policy.</summary>
    /// <param name="record">A record.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>Their names.</returns>
    public static IEnumerable<string> TimeCounters(BaselineRecord record, VerdictPolicy policy) => record.Counters
        .Where(c => KnownCounters.Of(c.Name, c.Kind).IsTimeLike && policy.GetRule(c.Name, c.Kind).Mode == VerdictMode.Statistical)
        .Select(static c => c.Name);

    /// <summary>How fast a record ran: the sum of the logs of its time counters' statistics (lower is faster).</summary>
    /// <param name="record">A record.</param>
    /// <param name="time">The time counters to sum.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>The score.</returns>
    public static double Score(BaselineRecord record, IEnumerable<string> time, VerdictPolicy policy)
    {
        double score = 0;
        foreach (string name in time)
        {
            if (record.Find(name) is { } counter && Statistic(counter, policy) is { } statistic
                && counter.PerOperation.Get(statistic) is > 0 and var value)
            {
                score += Math.Log(value);
            }
        }

        return score;
    }

    // The statistic a verdict of this counter judges with its samples.
    private static BaselineStatistic? Statistic(BaselineCounter counter, VerdictPolicy policy) =>
        BaselineComparer.Judgeable(policy.GetRule(counter.Name, counter.Kind).Statistic, counter.PerOperation.Samples);

    // now / then of the allocation reference between a level and the kept one (1 when either did not probe it).
    private static double AllocationRatio(BaselineRecord kept, BaselineRecord level) =>
        kept.AllocationSpeed is > 0 && level.AllocationSpeed is > 0 ? level.AllocationSpeed.Value / kept.AllocationSpeed.Value : 1;

    // Why a level cannot join the first one's, or null.
    private static string? Exclusion(
        BaselineRecord first, BaselineRecord level, VerdictPolicy policy, bool branch = true, double? fastBranch = null)
    {
        foreach (BaselineCounter counter in first.Counters)
        {
            CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
            if (rule.Mode != VerdictMode.Exact || level.Find(counter.Name) is not { } other)
                continue;
            double a = counter.PerOperation.Get(rule.Statistic), b = other.PerOperation.Get(rule.Statistic);
            double resolution = (counter.PerOperation.Precision + other.PerOperation.Precision) * Math.Max(Math.Abs(a), Math.Abs(b));
            if (Math.Abs(a - b) > resolution)
                return BaselineMessages.LevelRanOtherCode(counter.Name, a, b, counter.Unit);
        }

        // Beside a busy machine only when the first process was not: on a machine that stays busy (a CI runner with other
        // jobs) every process is, and leaving them all out would leave the spread unknown.
        int cores = policy.Judgement.Cores;
        if (MachineLoad.IsBusy(level.OtherProcessesCores, cores) && !MachineLoad.IsBusy(first.OtherProcessesCores, cores))
            return BaselineMessages.LevelBesideBusyProcesses(level.OtherProcessesCores, policy.Judgement.Cores);

        double? branchReference = fastBranch ?? first.BranchSpeed;
        if (branch && branchReference is > 0 && level.BranchSpeed is > 0
            && Math.Log(level.BranchSpeed.Value / branchReference.Value) > Math.Log(1 + policy.Judgement.BranchTolerance))
        {
            return BaselineMessages.LevelInSlowBranchyState(branchReference, level.BranchSpeed);
        }

        if (first.AllocationSpeed is null && first.MachineSpeed is > 0 && level.MachineSpeed is > 0
            && Math.Abs(Math.Log(level.MachineSpeed.Value / first.MachineSpeed.Value))
                > Math.Log(1 + policy.Judgement.MachineSpeedTolerance))
        {
            return BaselineMessages.LevelAtOtherMachineSpeed(first.MachineSpeed, level.MachineSpeed);
        }

        return null;
    }
}
