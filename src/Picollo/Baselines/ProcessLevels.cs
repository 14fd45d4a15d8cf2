using Picollo.Counters;

namespace Picollo.Baselines;

/// <summary>
/// The time levels of one machine's baseline across processes (docs/VERDICTS.md, "Code with two speeds per process"): which
/// recorded level a measurement is judged against, and how update mode with <c>PICOLLO_UPDATE_BASELINES=add</c> adds one.
/// </summary>
/// <remarks>
/// A short branchy body can run at one of two speeds per process, decided when the process lays its code out and the same
/// for every measurement in it: <c>Words.Count</c> of the samples measured a floor of about 160 ticks per call in 4 of 10
/// fresh processes and about 185 in the other 6, on one machine within minutes. A confirming measurement runs in the same
/// process, so against a baseline of one level every process at the other failed. An entry holding both judges each
/// process against the nearer one; the price is that a regression landing exactly on another recorded level passes.
/// </remarks>
internal static class ProcessLevels
{
    /// <summary>The most levels an entry holds, its own record included.</summary>
    public const int Max = 4;

    /// <summary>
    /// The verdicts against the level of <paramref name="entry"/> nearest to the measurement: the one whose largest time
    /// change (on a log scale, over the time counters compared with this machine's entry) is smallest; the entry's own
    /// record on a tie. A level whose time could not be judged (another machine speed, too few samples, not comparable) is
    /// never nearest, nor is a level that lacks one of the entry's time counters. A measurement between two levels is a
    /// change: a level that finds time improved is not chosen while a faster level finds it regressed. Every verdict
    /// compared with this machine's entry says which level it was judged against.
    /// </summary>
    /// <param name="entry">This machine's entry, with at least one process level.</param>
    /// <param name="primary">The verdicts against the entry's own record.</param>
    /// <param name="judge">The verdicts against a given level.</param>
    /// <param name="current">The measurement.</param>
    /// <returns>The chosen verdicts.</returns>
    public static IReadOnlyList<CounterVerdict> Nearest(BaselineEntry entry, IReadOnlyList<CounterVerdict> primary, Func<BaselineRecord, IReadOnlyList<CounterVerdict>> judge, BaselineRecord current)
    {
        string id = entry.Machine.Id;
        string[] timeCounters = [.. entry.Record.Counters.Where(static c => KnownCounters.Of(c.Name, c.Kind).IsTimeLike).Select(static c => c.Name)];
        var candidates = new List<(IReadOnlyList<CounterVerdict> Verdicts, int Level, double Distance)> { (primary, 1, Distance(primary, current, id)) };
        for (int i = 0; i < entry.Levels.Count; i++)
        {
            BaselineRecord level = entry.Levels[i];
            if (timeCounters.All(name => level.Find(name) is not null))
            {
                IReadOnlyList<CounterVerdict> verdicts = judge(level);
                candidates.Add((verdicts, i + 2, Distance(verdicts, current, id)));
            }
        }

        (IReadOnlyList<CounterVerdict> Verdicts, int Level, double Distance) best = candidates.MinBy(static c => c.Distance);
        if (Finds(best.Verdicts, CounterVerdictStatus.Improved, current, id)
            && candidates.Where(c => Finds(c.Verdicts, CounterVerdictStatus.Regressed, current, id)).OrderBy(static c => c.Distance).FirstOrDefault() is { Verdicts: not null } regressed)
        {
            best = regressed;
        }

        int count = entry.Levels.Count + 1;
        return [.. best.Verdicts.Select(v => v.BaselineMachineId == id && v.BaselineValue is not null ? v with { ProcessLevel = best.Level, ProcessLevelCount = count } : v)];
    }

    /// <summary>
    /// What update mode with <c>PICOLLO_UPDATE_BASELINES=add</c> writes for <paramref name="measured"/>: the machine's entry
    /// with the measurement as one more level when its time matches none of the recorded levels; the entry unchanged when
    /// it matches one, when the entry is full, or when time could not be judged; the measurement alone, replacing the
    /// entry, when an exact counter differs (the code changed, so the recorded levels are stale); the measurement when
    /// there is no entry yet.
    /// </summary>
    /// <param name="existing">This machine's entry in the baseline, or <see langword="null"/>.</param>
    /// <param name="measured">The measurement as an entry (no levels).</param>
    /// <param name="policy">The verdict rules that tell a level from noise.</param>
    /// <returns>The entry to write and what happened, as the end of a sentence ("added as process level 2 of 2").</returns>
    public static (BaselineEntry Entry, string Outcome) Add(BaselineEntry? existing, BaselineEntry measured, VerdictPolicy policy)
    {
        if (existing is null)
            return (measured, "recorded as its first process level");

        BaselineRecord[] levels = [existing.Record, .. existing.Levels];
        IReadOnlyList<CounterVerdict> Against(BaselineRecord level) =>
            BaselineComparer.Compare(new BaselineFile([existing with { Record = level, Levels = [] }]), measured.Machine, measured.Record, policy);

        IReadOnlyList<CounterVerdict> first = Against(levels[0]);
        CounterVerdict[] exact = [.. first.Where(static v => v.Mode == VerdictMode.Exact && v.Status is CounterVerdictStatus.Regressed or CounterVerdictStatus.Improved)];
        if (exact.Length > 0)
        {
            string stale = levels.Length == 1 ? "process level no longer applies" : $"{levels.Length} process levels no longer apply";
            return (measured, $"replaced, not extended: {string.Join("; ", exact.Select(static v => v.Text))}; an exact counter changed, so the code did and the recorded {stale}");
        }

        // A level is another speed of the same measurement: a run with other counters (no hardware counters this time) would
        // leave some counters with one level and others with two.
        string measuredNames = string.Join(", ", measured.Record.Counters.Select(static c => c.Name).Order(StringComparer.Ordinal));
        string heldNames = string.Join(", ", existing.Record.Counters.Select(static c => c.Name).Order(StringComparer.Ordinal));
        if (measuredNames != heldNames)
            return (existing, $"not extended: it measured {measuredNames}, the entry holds {heldNames}; its process levels need the same counters (record it again with {BaselineStoreOptions.UpdateVariable}=1 to start over)");

        string? unjudged = null;
        for (int i = 0; i < levels.Length; i++)
        {
            CounterVerdict[] time = [.. (i == 0 ? first : Against(levels[i])).Where(v => IsTime(v, measured.Record, measured.Machine.Id))];
            if (time.Length == 0)
                return (existing, "not extended: it has no time counter to compare with the entry's");
            if (time.All(static v => v.Status == CounterVerdictStatus.Pass && Judged(v)))
                return (existing, $"not extended: its time matches process level {i + 1} of {levels.Length} ({string.Join("; ", time.Select(static v => v.Text))})");
            unjudged ??= time.FirstOrDefault(static v => !Judged(v))?.Text;
        }

        if (unjudged is not null)
            return (existing, $"not extended: {unjudged}; a level is added only from a run whose time could be compared");

        if (levels.Length >= Max)
            return (existing, $"not extended: it holds {Max} process levels already; record it again with {BaselineStoreOptions.UpdateVariable}=1 to start over");

        return (existing with { Levels = [.. existing.Levels, measured.Record] }, $"added as process level {levels.Length + 1} of {levels.Length + 1}");
    }

    // The largest time change against one level, on a log scale; infinite when a time counter could not be judged.
    private static double Distance(IReadOnlyList<CounterVerdict> verdicts, BaselineRecord current, string machineId)
    {
        double distance = 0;
        foreach (CounterVerdict v in verdicts)
        {
            if (!IsTime(v, current, machineId))
                continue;
            if (!Judged(v))
                return double.PositiveInfinity;
            distance = Math.Max(distance, Math.Abs(Math.Log(1 + v.RelativeChange!.Value)));
        }

        return distance;
    }

    // A time verdict that compared the two sides: not another machine speed, too few samples, or not comparable.
    private static bool Judged(CounterVerdict v) =>
        !v.ConditionsChanged && v.Status is CounterVerdictStatus.Pass or CounterVerdictStatus.Regressed or CounterVerdictStatus.Improved
        && v.RelativeChange is { } change && double.IsFinite(change) && change > -1;

    private static bool Finds(IReadOnlyList<CounterVerdict> verdicts, CounterVerdictStatus status, BaselineRecord current, string machineId) =>
        verdicts.Any(v => v.Status == status && IsTime(v, current, machineId));

    // A statistical verdict of a time counter against this machine's own entry: what process levels are about.
    private static bool IsTime(CounterVerdict v, BaselineRecord current, string machineId) =>
        v.Mode == VerdictMode.Statistical && v.BaselineMachineId == machineId && current.Find(v.Counter) is { } c && KnownCounters.Of(c.Name, c.Kind).IsTimeLike;
}
