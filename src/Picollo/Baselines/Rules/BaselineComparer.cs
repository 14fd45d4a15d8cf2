using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Metrics;

namespace Picollo.Baselines.Rules;

/// <summary>Compares a measurement with a baseline file, counter by counter (docs/ARCHITECTURE.md, "Baselines and verdicts").</summary>
internal static class BaselineComparer
{
    /// <summary>One verdict per counter of <paramref name="current"/>, in its order.</summary>
    /// <param name="baseline">The baseline file, or <see langword="null"/> when there is none.</param>
    /// <param name="machine">The machine <paramref name="current"/> was measured on.</param>
    /// <param name="current">The measurement.</param>
    /// <param name="policy">The rules; <see cref="VerdictPolicy.Default"/> when <see langword="null"/>.</param>
    /// <param name="looks">What the judgement's earlier measurements in this process showed, or <see langword="null"/>.</param>
    /// <returns>The verdicts.</returns>
    /// <remarks>
    /// Each counter is compared with the entry of this very machine when it holds the counter; otherwise with the
    /// most recently recorded entry whose machine is comparable for that counter (<see cref="BaselinePortability"/>),
    /// so allocated bytes recorded on a laptop still guard a CI runner with the same runtime. Time is judged against the
    /// entry's fastest recorded level with what its conditions allow (<see cref="TimeAllowance"/>).
    /// </remarks>
    public static IReadOnlyList<CounterVerdict> Compare(
        BaselineFile? baseline,
        MachineFingerprint machine,
        BaselineRecord current,
        VerdictPolicy? policy = null,
        EarlierLooks? looks = null)
    {
        ArgumentNullException.ThrowIfNull(machine);
        ArgumentNullException.ThrowIfNull(current);
        policy ??= VerdictPolicy.Default;
        var verdicts = new List<CounterVerdict>(current.Counters.Count);
        // Simulated counters were counted on the simulated machine, whose entry holds them, whatever the host.
        MachineFingerprint? simulated = current.Simulator is { } simulator ? MachineFingerprint.ForSimulator(simulator) : null;
        foreach (BaselineCounter counter in current.Counters)
        {
            MachineFingerprint on = counter.Kind == CounterKind.Simulated && simulated is not null ? simulated : machine;
            CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
            verdicts.Add(CompareCounter(baseline, on, counter, rule, current, policy.Judgement, looks));
        }

        return verdicts;
    }

    // One counter's verdict in stages: the entry it is compared with, whether the two can be compared at all, then the
    // exact rule or the statistical one.
    private static CounterVerdict CompareCounter(
        BaselineFile? baseline,
        MachineFingerprint machine,
        BaselineCounter counter,
        CounterVerdictRule rule,
        BaselineRecord current,
        JudgementPolicy judgement,
        EarlierLooks? looks)
    {
        if (baseline is null)
            return NotCompared(counter, rule, CounterVerdictStatus.NoBaseline, null, "no baseline file");

        if (MatchingEntry(baseline, machine, counter, out string noEntry) is not { } match)
            return NotCompared(counter, rule, CounterVerdictStatus.NoBaseline, null, noEntry);

        BaselineCounter reference = match.Record.Find(counter.Name)!;
        HdrHistogramSummary before = reference.Histogram.GetSummary(), after = counter.Histogram.GetSummary();
        string? incompatibility = Incompatibility(reference, counter)
            ?? (before.TotalCount == 0 ? "the baseline histogram is empty"
                : after.TotalCount == 0 ? "the measured histogram is empty"
                : null);
        if (incompatibility is not null)
            return NotCompared(counter, rule, CounterVerdictStatus.NotComparable, match.Machine.Id, "not comparable: " + incompatibility);

        // A body that allocates page-faults when the collector hands out memory it had returned to the system: about once per
        // 1.8 MB allocated, 0 in one run and 1.6 per 1,000 operations in the next for an unchanged 3 KB-per-operation body,
        // whatever its code does. Its allocations are compared exactly by allocated-bytes instead.
        if (string.Equals(counter.Name, CounterNames.PageFaults, StringComparison.OrdinalIgnoreCase)
            && (Allocates(current) || Allocates(match.Record)))
        {
            return NotCompared(counter, rule, CounterVerdictStatus.Pass, match.Machine.Id, VerdictMessages.PageFaultsOfAnAllocatingBody());
        }

        if (rule.Mode == VerdictMode.Exact)
            return Exact(reference, counter, rule, match.Machine.Id, judgement);

        // Time is judged in the measurement's conditions (docs/VERDICTS.md, "What a verdict allows for"): the levels the
        // recording saw across processes, a body's allocation speed, another machine speed, other processes keeping the
        // machine busy. Each either corrects the change or bounds what unchanged code may show; none leaves time unjudged.
        TimeAllowance allowance = KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike
            ? TimeAllowance.For(reference, match.Record, current, judgement, looks)
            : TimeAllowance.None;
        return Statistical(
            reference, counter, rule, match.Machine.Id, (long)Math.Min(before.TotalCount, after.TotalCount), allowance, judgement);
    }

    // The entry a counter is compared with: this machine's when it holds the counter, otherwise the most recently recorded
    // comparable one. Without one, why not: the entries from other machines the portability rules refused.
    private static BaselineEntry? MatchingEntry(
        BaselineFile baseline, MachineFingerprint machine, BaselineCounter counter, out string noEntry)
    {
        CounterPortability portability = BaselinePortability.Of(counter.Kind, counter.Name);
        BaselineEntry? match = null;
        var rejections = new List<string>();
        foreach (BaselineEntry entry in baseline.Entries)
        {
            if (entry.Record.Find(counter.Name) is null)
                continue;

            if (!BaselinePortability.IsComparable(portability, entry.Machine, machine, out string? reason))
            {
                rejections.Add(reason!);
                continue;
            }

            if (match is null || entry.Machine.Id == machine.Id ||
                (match.Machine.Id != machine.Id && entry.Record.RecordedUtc > match.Record.RecordedUtc))
            {
                match = entry;
            }
        }

        string others = rejections.Count switch
        {
            0 => string.Empty,
            1 => $" (1 entry from another machine: {rejections[0]})",
            _ => string.Create(CultureInfo.InvariantCulture, $" ({rejections.Count} entries from other machines, e.g. {rejections[0]})"),
        };
        // This machine's entry without the counter: recorded before the counter was measured, or with its time left out
        // because the recording's code was not final (BaselineJudge). Saying "no baseline" alone sent readers to a file
        // that plainly had an entry for their machine.
        string without = baseline.Entries.Any(e => e.Machine.Id == machine.Id)
            ? $" (this machine's entry was recorded without it: record it again with {BaselineStoreOptions.UpdateVariable}=1)"
            : string.Empty;
        noEntry = "no baseline for this machine" + without + others;
        return match;
    }

    // Why a counter's baseline cannot be compared with its measurement at all, or null.
    private static string? Incompatibility(BaselineCounter reference, BaselineCounter counter) =>
        reference.Unit != counter.Unit ? $"the unit changed ({reference.Unit} → {counter.Unit})"
        : reference.Kind != counter.Kind ? $"the kind changed ({reference.Kind} → {counter.Kind})"

        // A distribution of single operations is wider than one of per-sample means: d would mislead.
        : (reference.OperationsPerSample == 1) != (counter.OperationsPerSample == 1)
            ? VerdictMessages.OperationsPerSampleChanged(reference.OperationsPerSample, counter.OperationsPerSample)
        : null;

    // Per operation, from the exact statistics of the samples: the pilot may group a different number of operations per
    // sample on each run, and a bucket's value would show 64 allocated bytes as 64.015. "Exact" means equal within what the
    // stored numbers resolve: a baseline rounds to 7 significant digits (or, when written before it stored exact
    // statistics, holds bucket values within its relative error). One byte more per operation (88 → 89, +1.1%) stays far
    // outside that.
    //
    // A near-exact counter (simulated: the rule's MinRelativeChange is its tolerance) may move by that tolerance, or by four
    // times the difference its recording measured between processes (RecordingQuality.Drift) when that is more, and by its
    // MinAbsoluteChange; the verdict says the tolerance it applied.
    private static CounterVerdict Exact(
        BaselineCounter reference, BaselineCounter counter, CounterVerdictRule rule, string machineId, JudgementPolicy judgement)
    {
        double b = reference.PerOperation.Get(rule.Statistic);
        double a = counter.PerOperation.Get(rule.Statistic);
        double largest = Math.Max(Math.Abs(a), Math.Abs(b));
        double tolerance = Tolerance(reference, rule, judgement);
        double resolution = Math.Max(
            (reference.PerOperation.Precision + counter.PerOperation.Precision) * largest,
            Math.Max(tolerance * largest, rule.MinAbsoluteChange));
        CounterVerdictStatus exact = a - b > resolution ? CounterVerdictStatus.Regressed
            : b - a > resolution ? CounterVerdictStatus.Improved
            : CounterVerdictStatus.Pass;
        return new CounterVerdict(counter.Name, counter.Unit, exact, rule.Mode, rule.Statistic, b, a, Change(b, a), null, machineId, null)
        {
            Tolerance = tolerance > 0 ? tolerance : null,
        };
    }

    /// <summary>
    /// The relative tolerance of an exact rule for a counter recorded as <paramref name="reference"/>: 0 for a deterministic
    /// counter; for a simulated one the rule's, or <see cref="JudgementPolicy.SimulatedSpreadTolerance"/> (four) times the
    /// difference its recording measured between processes.
    /// </summary>
    internal static double Tolerance(BaselineCounter reference, CounterVerdictRule rule, JudgementPolicy judgement) =>
        reference.Kind == CounterKind.Simulated
            ? Math.Max(rule.MinRelativeChange, judgement.SimulatedSpreadTolerance * (reference.Recording?.Drift ?? 0))
            : 0;

    // The floor rule (docs/VERDICTS.md): the statistic's rise beyond what the conditions allow must reach the practical
    // threshold, and be z(confidence) times its noise on a log scale: each side's precision from its own samples (a rank
    // interval of the quantile), the run-to-run drift no run can see in itself, a machine-speed move within the gate, and
    // the uncertainty of a correction. An opt-in gate on Cohen's d of the floor adds to both, never replaces them.
    private static CounterVerdict Statistical(
        BaselineCounter reference,
        BaselineCounter counter,
        CounterVerdictRule rule,
        string machineId,
        long samples,
        TimeAllowance allowance,
        JudgementPolicy judgement)
    {
        if (Judgeable(rule.Statistic, samples) is not { } statistic)
        {
            return NotCompared(counter, rule, CounterVerdictStatus.Inconclusive, machineId, VerdictMessages.TooFewSamples(samples));
        }

        double b = reference.PerOperation.Get(statistic);
        double a = counter.PerOperation.Get(statistic);
        double change = Change(b, a);
        double drift = Math.Max(rule.Drift, reference.Recording?.Drift ?? 0);
        double zMin = NormalQuantile.Of(rule.Confidence);
        double seBaseline = StandardError(reference, statistic);
        double seCurrent = StandardError(counter, statistic);
        double sigma = Math.Sqrt((seBaseline * seBaseline) + (seCurrent * seCurrent) + (drift * drift)
            + (allowance.SpeedSigma * allowance.SpeedSigma) + (allowance.ShiftSigma * allowance.ShiftSigma));
        bool timeLike = KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike;

        // Occasional events per operation are counts: their noise is Poisson, from the numbers of events on each side.
        // A count that is otherwise 0 on one side (a floor of no misses) has no ratio: only a clear separation counts.
        // Otherwise the log change is measured from the edge of the band the conditions allow: above it for a rise, below it
        // for a fall, 0 inside it.
        double logChange = a > 0 && b > 0 ? Math.Log(a / b) - allowance.Shift : double.NaN;
        double excess = double.IsNaN(logChange) ? double.NaN
            : logChange > allowance.High ? logChange - allowance.High
            : logChange < allowance.Low ? logChange - allowance.Low
            : 0;
        bool events = statistic == BaselineStatistic.Mean && KnownCounters.Of(counter.Name, counter.Kind).IsOccasional;
        double z = events ? EventsZ(reference, counter, drift)
            : !double.IsNaN(excess) ? excess / sigma
            : a == b ? 0
            : a > b ? (LowerBound(counter, statistic) > 0 ? double.PositiveInfinity : 0)
            : (LowerBound(reference, statistic) > 0 ? double.NegativeInfinity : 0);
        // Cohen's d beyond the same edge; inside the band there is nothing beyond it.
        double? d = !timeLike ? null
            : excess == 0 && (allowance.High > 0 || allowance.Low < 0) ? 0
            : FloorEffectSize.Of(reference, counter, allowance.Shift + (excess > 0 ? allowance.High : excess < 0 ? allowance.Low : 0));

        // A regression is a rise and an improvement a fall whatever the thresholds: with both at 0 an unchanged counter
        // would otherwise "regress". The improvement threshold mirrors the regression's on a log scale (−7.4 % for +8 %).
        // Without a ratio (a side at 0) the raw change decides, as the band has no meaning there.
        double beyond = double.IsNaN(excess) ? change : Math.Exp(excess) - 1;
        bool matters = Math.Abs(a - b) >= rule.MinAbsoluteChange;
        bool largeRise = rule.MaxCohensD is not { } gate || d is not { } effect || effect > gate;
        bool largeFall = rule.MaxCohensD is not { } fallGate || d is not { } fall || fall < -fallGate;
        CounterVerdictStatus status =
            matters && beyond > 0 && beyond >= rule.MinRelativeChange && z >= zMin && largeRise ? CounterVerdictStatus.Regressed
            : matters && beyond < 0 && beyond <= (1 / (1 + rule.MinRelativeChange)) - 1 && z <= -zMin && largeFall
                ? CounterVerdictStatus.Improved
            : CounterVerdictStatus.Pass;
        double detectable = DetectableChange(seBaseline, drift, zMin, judgement, allowance);
        return new CounterVerdict(counter.Name, counter.Unit, status, rule.Mode, statistic, b, a, change, z, machineId, null)
        {
            DetectableChange = detectable,
            CohensD = d,
            Allowance = allowance.Parts.Count > 0 ? allowance : null,
            RecordedProcesses = reference.Recording?.Processes ?? 1,
        };
    }

    /// <summary>
    /// The smallest rise of the statistic that a measurement as precise as the baseline tells from noise 95 % of the time
    /// at the rule's confidence, from the baseline's fastest level: exp(high − low + (z(confidence) + z(0.95))·√(2·se² +
    /// drift² + the conditions' own uncertainty²)) − 1, where high is what the conditions allow unchanged code (the recorded
    /// spread, a busy machine, a slower machine) and −low what a faster machine could hide.
    /// </summary>
    /// <param name="seBaseline">The baseline's relative standard error of the statistic.</param>
    /// <param name="drift">The run-to-run drift.</param>
    /// <param name="zMin">z(confidence).</param>
    /// <param name="judgement">The rules' numbers: the power (<see cref="JudgementPolicy.DetectionPowerZ"/>).</param>
    /// <param name="allowance">The conditions' allowance; <see cref="TimeAllowance.None"/> for the recording's own.</param>
    /// <returns>The relative change, e.g. 0.072.</returns>
    internal static double DetectableChange(
        double seBaseline, double drift, double zMin, JudgementPolicy judgement, TimeAllowance? allowance = null)
    {
        ArgumentNullException.ThrowIfNull(judgement);
        allowance ??= TimeAllowance.None;
        double sigma = Math.Sqrt((2 * seBaseline * seBaseline) + (drift * drift)
            + (allowance.SpeedSigma * allowance.SpeedSigma) + (allowance.ShiftSigma * allowance.ShiftSigma));
        // A band that reaches below 0 (a machine faster than at recording) hides a regression up to its depth: the rise a
        // verdict certainly sees starts that much further up.
        return Math.Exp(allowance.High - allowance.Low + ((zMin + judgement.DetectionPowerZ) * sigma)) - 1;
    }

    /// <summary>
    /// The statistic a verdict can judge with <paramref name="samples"/> samples: the rule's, or the next quantile up
    /// that the samples can bound.
    /// </summary>
    internal static BaselineStatistic? Judgeable(BaselineStatistic statistic, long samples)
    {
        // P10 needs 51 samples for a 99 % interval, P25 19, P50 8 (QuantileInterval.Ranks).
        foreach (BaselineStatistic candidate in Fallbacks(statistic))
        {
            if (QuantileInterval.QuantileOf(candidate) is not { } p || p >= 1 || QuantileInterval.Ranks(samples, p) is not null)
                return candidate;
        }

        return null;
    }

    private static IEnumerable<BaselineStatistic> Fallbacks(BaselineStatistic statistic)
    {
        yield return statistic;
        if (statistic == BaselineStatistic.P10)
            yield return BaselineStatistic.P25;
        if (statistic is BaselineStatistic.P10 or BaselineStatistic.P25)
            yield return BaselineStatistic.P50;
    }

    // The relative standard error of a counter's statistic: a quantile's from its rank interval; the mean's from the
    // samples' spread; never finer than the histogram's buckets.
    internal static double StandardError(BaselineCounter counter, BaselineStatistic statistic)
    {
        HdrHistogramSummary summary = counter.Histogram.GetSummary();
        double bucket = summary.RelativeError / Math.Sqrt(3);
        if (QuantileInterval.QuantileOf(statistic) is { } p && p < 1)
            return QuantileInterval.RelativeStandardError(counter.Histogram, p) ?? bucket;
        return summary.Mean > 0 && summary.TotalCount > 0
            ? Math.Max(summary.StdDev / Math.Sqrt(summary.TotalCount) / summary.Mean, bucket)
            : bucket;
    }

    /// <summary>
    /// z of a change in events per operation, counted as Poisson events: the log ratio of the two rates, each count
    /// smoothed by half an event so that 0 has a ratio, over √(1/(K₁ + ½) + 1/(K₂ + ½) + drift²). 0 events against 460 in
    /// the same number of operations is z ≈ 4.8; 0 against 2 is z ≈ 1.0, not a finding.
    /// </summary>
    internal static double EventsZ(BaselineCounter reference, BaselineCounter counter, double drift)
    {
        (double kb, double nb) = Events(reference);
        (double ka, double na) = Events(counter);
        if (nb <= 0 || na <= 0)
            return 0;
        double sigma = Math.Sqrt((1 / (kb + 0.5)) + (1 / (ka + 0.5)) + (drift * drift));
        return Math.Log(((ka + 0.5) / na) / ((kb + 0.5) / nb)) / sigma;
    }

    // The events and operations behind a counter's mean per operation.
    private static (double Events, double Operations) Events(BaselineCounter counter)
    {
        double operations = counter.OperationsPerSample * counter.PerOperation.Samples;
        return (Math.Max(0, Math.Round(counter.PerOperation.Mean * operations)), operations);
    }

    // The lower end of the statistic's interval (a quantile's, in per-sample totals; the value itself otherwise): only
    // compared with 0.
    private static double LowerBound(BaselineCounter counter, BaselineStatistic statistic) =>
        QuantileInterval.QuantileOf(statistic) is { } p && p < 1 && QuantileInterval.Bounds(counter.Histogram, p) is (double lower, _)
            ? lower
            : counter.PerOperation.Get(statistic);

    private static double Change(double before, double after) =>
        before != 0 ? (after - before) / before : after == 0 ? 0 : double.PositiveInfinity;

    private static bool Allocates(BaselineRecord record) =>
        record.Find(CounterNames.AllocatedBytes) is { } bytes && bytes.PerOperation.Mean > 0;

    private static CounterVerdict NotCompared(
        BaselineCounter counter, CounterVerdictRule rule, CounterVerdictStatus status, string? machineId, string reason) =>
        new(counter.Name, counter.Unit, status, rule.Mode, rule.Statistic, null, null, null, null, machineId, reason);
}
