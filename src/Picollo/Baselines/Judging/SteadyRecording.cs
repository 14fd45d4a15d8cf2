using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;

namespace Picollo.Baselines.Judging;

/// <summary>
/// Records a baseline from a steady moment (docs/VERDICTS.md, "Recording"): the body is measured again until two runs
/// agree on every statistical counter's statistic within the rule's drift (and half its threshold), and the faster of
/// the two is kept, so one disturbed moment cannot blind every later verdict. After
/// <see cref="JudgementPolicy.MaxRecordingRuns"/> runs without such a pair the faster of the closest pair is kept, with
/// a notice. Each statistical counter of the record carries what was seen: the runs, the drift between the pair, and
/// the smallest change the baseline lets a verdict detect.
/// </summary>
internal sealed class SteadyRecording
{
    private SteadyRecording(
        PerfResult kept, BaselineRecord record, string? note, IReadOnlyList<string> notices, IReadOnlyList<BaselineRecord> others)
    {
        Kept = kept;
        Record = record;
        Note = note;
        Notices = notices;
        Others = others;
    }

    /// <summary>The measurement recorded.</summary>
    public PerfResult Kept { get; }

    /// <summary>Its record, each statistical counter with its <see cref="RecordingQuality"/>.</summary>
    public BaselineRecord Record { get; }

    /// <summary>What the recording did, for the report; <see langword="null"/> when it took one measurement.</summary>
    public string? Note { get; }

    /// <summary>What the reader must know about the recorded baseline (an unsteady machine, a baseline blind to its threshold).</summary>
    public IReadOnlyList<string> Notices { get; }

    /// <summary>
    /// The recording's other measurements of final code taken while the machine was not busy: levels of this process that
    /// the baseline's spread takes in (<see cref="TimeSpread"/>), since a short branchy body switches levels within a
    /// process too (1,040 → 1,389 ticks between two measurements, the machine's reference steady).
    /// </summary>
    public IReadOnlyList<BaselineRecord> Others { get; }

    /// <summary>Measures <paramref name="first"/>'s body again until two runs agree, and returns the run to record.</summary>
    /// <param name="first">A measurement that can be measured again (<see cref="PerfResult.CanRemeasure"/>).</param>
    /// <param name="policy">The verdict rules: which counters are statistical, their statistics and thresholds.</param>
    /// <param name="remeasure">Measures a measurement's body again.</param>
    /// <returns>The recording.</returns>
    public static SteadyRecording Take(PerfResult first, VerdictPolicy policy, Func<PerfResult, PerfResult> remeasure)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(policy);
        var runs = new List<Run> { Run.Of(first, policy) };
        if (runs[0].Statistics.Count == 0 || !first.CanRemeasure)
            return new SteadyRecording(first, runs[0].Record, null, [], []);

        (int Faster, int Slower)? pair = null;
        while (runs.Count < policy.Judgement.MaxRecordingRuns && pair is null)
        {
            runs.Add(Run.Of(remeasure(first), policy));
            pair = FindAgreeingPair(runs, policy);
        }

        var notices = new List<string>();
        string note;
        if (pair is (int faster, int slower))
        {
            note = BaselineMessages.RecordedFromSteadyMoment(runs.Count, Describe(runs[faster], runs[slower]));
        }
        else
        {
            pair = ClosestPair(runs);
            (faster, slower) = pair.Value;
            bool busy = Busy(runs[faster]) || Busy(runs[slower]);
            note = BaselineMessages.RecordedOnUnsteadyMachine(
                policy.Judgement.MaxRecordingRuns, WhyNoneAgreed(runs, policy), Describe(runs[faster], runs[slower]), busy);
            // When even the kept run's code was not final, its statistical counters are not written (BaselineJudge), and the
            // judge's notice says so: advice about what verdicts against them allow would be about numbers nobody stores.
            if (Final(runs[faster]))
                notices.Add(BaselineMessages.UnsteadyRecordingNotice(note));
        }

        Run kept = runs[faster];
        Dictionary<string, double> drift =
            kept.Statistics.Keys.ToDictionary(name => name, name => Math.Abs(Math.Log(Ratio(runs[faster], runs[slower], name))));
        var counters = new List<BaselineCounter>(kept.Record.Counters.Count);
        foreach (BaselineCounter counter in kept.Record.Counters)
        {
            if (!kept.Statistics.TryGetValue(counter.Name, out (BaselineStatistic Statistic, double Value) statistic))
            {
                counters.Add(counter);
                continue;
            }

            CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
            double counterDrift = drift.GetValueOrDefault(counter.Name);
            double se = BaselineComparer.StandardError(counter, statistic.Statistic), z = NormalQuantile.Of(rule.Confidence);
            double detectable = BaselineComparer.DetectableChange(se, Math.Max(rule.Drift, counterDrift), z, policy.Judgement);
            counters.Add(counter with { Recording = new RecordingQuality(runs.Count, counterDrift, detectable) });
            // A change matters when it reaches both thresholds, so the smallest one that matters is the larger of the
            // relative threshold and the absolute floor relative to the value: a few page faults in millions of operations
            // are far under the floor of one per 1,000, and a counter that was 0 has no relative change to miss (NaN or ∞).
            if (Final(kept) && detectable > Math.Max(rule.MinRelativeChange, rule.MinAbsoluteChange / statistic.Value))
                notices.Add(BaselineMessages.BlindBaseline(counter.Name, statistic.Statistic, detectable, rule.MinRelativeChange));
        }

        return new SteadyRecording(kept.Result, kept.Record with { Counters = counters }, note, notices, OtherLevels(runs, kept));
    }

    // The recording's other runs of final code, as levels of this process: beside a busy machine only when the kept run
    // was too (a machine that stays busy has no quiet runs to compare with).
    private static BaselineRecord[] OtherLevels(List<Run> runs, Run kept) =>
    [
        .. runs.Where(r => r != kept && (!Busy(r) || Busy(kept)) && r.Result.Run.RanFinalCode)
            .Select(static r => r.Record),
    ];

    // The first pair (in the order measured) whose statistics agree.
    private static (int Faster, int Slower)? FindAgreeingPair(List<Run> runs, VerdictPolicy policy)
    {
        // A run taken while other processes kept the machine busy agrees with nothing: two of them agreed on a slowed
        // floor, and the baseline made every later quiet run look faster.
        // Nor does a run of code that was not final: two tier-0 runs agreed at 4,215 ticks/op for a chain a 3x longer version
        // of which later measured 1,922 at tier 1 (issue 24); measuring on gives the tiering the time to finish.
        int last = runs.Count - 1;
        if (!Usable(runs[last]))
            return null;
        for (int i = 0; i < last; i++)
        {
            if (Usable(runs[i]) && Agree(runs[i], runs[last], policy))
                return Order(runs, i, last);
        }

        return null;
    }

    private static bool Busy(Run run) => MachineLoad.IsBusy(run.Record.OtherProcessesCores);

    private static bool Final(Run run) => run.Result.Run.RanFinalCode;

    private static bool Usable(Run run) => !Busy(run) && Final(run);

    // Two runs agree when every statistical counter's statistic lies within the rule's drift of the other's (and within
    // half its threshold, for a rule whose drift is wider than that; JudgementPolicy.AgreementShareOfThreshold, where
    // levels agree within the greater of the two instead): the difference a verdict already allows for. A
    // difference below the rule's absolute floor (a few page faults in millions of operations) is one no verdict judges.
    private static bool Agree(Run a, Run b, VerdictPolicy policy)
    {
        foreach ((string name, (BaselineStatistic _, double value)) in a.Statistics)
        {
            if (!b.Statistics.TryGetValue(name, out (BaselineStatistic Statistic, double Value) other) || value <= 0 || other.Value <= 0)
                continue;
            CounterVerdictRule rule = policy.GetRule(name, a.Record.Find(name)!.Kind);
            if (Math.Abs(value - other.Value) < rule.MinAbsoluteChange)
                continue;
            double allowed = RunsAgreeWithin(rule, policy.Judgement);
            if (Math.Abs(Math.Log(value / other.Value)) > allowed)
                return false;
        }

        return true;
    }

    // How far apart (log scale) two runs of a recording may lie and still agree: the rule's drift, at most half the threshold.
    private static double RunsAgreeWithin(CounterVerdictRule rule, JudgementPolicy judgement) =>
        Math.Min(rule.Drift, Math.Log(1 + (rule.MinRelativeChange * judgement.AgreementShareOfThreshold)));

    // What kept every pair apart, with the numbers: the measurements beside busy processes, which agree with none, and how far
    // the closest quiet two were apart against what the verdicts allow. Closest values alone said "no two within the drift"
    // beside two runs 0.007 % apart, both beside busy processes (issue 27).
    private static string WhyNoneAgreed(List<Run> runs, VerdictPolicy policy)
    {
        Run[] busy = [.. runs.Where(Busy)];
        Run[] quiet = [.. runs.Where(Usable)];
        var reasons = new List<string>();
        if (runs.Count(static r => !Final(r)) is > 0 and int notFinal)
            reasons.Add(BaselineMessages.NotFinalMeasurementsAgreeWithNone(notFinal, runs.Count));
        if (busy.Length > 0)
        {
            double fewest = busy.Min(static r => r.Record.OtherProcessesCores), most = busy.Max(static r => r.Record.OtherProcessesCores);
            reasons.Add(BaselineMessages.BusyMeasurementsAgreeWithNone(busy.Length, runs.Count, fewest, most, policy.Judgement.Cores));
        }

        if (quiet.Length >= 2 && ClosestDisagreement(quiet, policy) is { } apart)
        {
            reasons.Add(BaselineMessages.ClosestTwoDiffer(
                quiet.Length, quiet.Length < runs.Count, apart.Percent, apart.Counter, apart.Statistic, apart.A, apart.B, apart.Allowed));
        }
        else if (quiet.Length == 1)
        {
            reasons.Add(runs.All(Final) ? "only one ran on a quiet machine" : "only one ran final code on a quiet machine");
        }

        return string.Join("; ", reasons);
    }

    // Of the pairs of quiet runs, the one nearest to agreeing, and its counter furthest past what Agree allows.
    private static (string Counter, BaselineStatistic Statistic, double A, double B, double Percent, double Allowed)? ClosestDisagreement(
        Run[] quiet, VerdictPolicy policy)
    {
        (string, BaselineStatistic, double, double, double, double)? best = null;
        double bestExcess = double.PositiveInfinity;
        for (int i = 0; i < quiet.Length; i++)
        {
            for (int j = i + 1; j < quiet.Length; j++)
            {
                (string, BaselineStatistic, double, double, double, double)? widest = null;
                double widestExcess = double.NegativeInfinity;
                foreach ((string name, (BaselineStatistic statistic, double value)) in quiet[i].Statistics)
                {
                    if (!quiet[j].Statistics.TryGetValue(name, out (BaselineStatistic Statistic, double Value) other)
                        || value <= 0 || other.Value <= 0)
                    {
                        continue;
                    }

                    CounterVerdictRule rule = policy.GetRule(name, quiet[i].Record.Find(name)!.Kind);
                    if (Math.Abs(value - other.Value) < rule.MinAbsoluteChange)
                        continue;
                    double allowed = RunsAgreeWithin(rule, policy.Judgement);
                    double excess = Math.Abs(Math.Log(value / other.Value)) - allowed;
                    if (excess > widestExcess)
                    {
                        widestExcess = excess;
                        double apart = (Math.Max(value, other.Value) / Math.Min(value, other.Value) - 1) * 100;
                        widest = (name, statistic, value, other.Value, apart, (Math.Exp(allowed) - 1) * 100);
                    }
                }

                if (widest is not null && widestExcess > 0 && widestExcess < bestExcess)
                    (best, bestExcess) = (widest, widestExcess);
            }
        }

        return best;
    }

    // The pair whose widest disagreement over the counters is the smallest, of those with the most runs of final code.
    private static (int Faster, int Slower) ClosestPair(List<Run> runs)
    {
        (int, int) best = (0, 1);
        (int NotFinal, double Gap) bestKey = (int.MaxValue, double.PositiveInfinity);
        for (int i = 0; i < runs.Count; i++)
        {
            for (int j = i + 1; j < runs.Count; j++)
            {
                double gap = runs[i].Statistics.Keys
                    .Select(name => Math.Abs(Math.Log(Ratio(runs[i], runs[j], name))))
                    .DefaultIfEmpty(0)
                    .Max();
                (int, double) key = ((Final(runs[i]) ? 0 : 1) + (Final(runs[j]) ? 0 : 1), gap);
                if (key.CompareTo(bestKey) < 0)
                    (best, bestKey) = ((i, j), key);
            }
        }

        return Order(runs, best.Item1, best.Item2);
    }

    // The run kept is the faster one, or the one of final code when only one is: the slower then measured the final code.
    private static (int Faster, int Slower) Order(List<Run> runs, int i, int j) =>
        Final(runs[i]) != Final(runs[j]) ? (Final(runs[i]) ? (i, j) : (j, i))
        : runs[i].Score <= runs[j].Score ? (i, j) : (j, i);

    private static double Ratio(Run a, Run b, string counter)
    {
        double x = a.Statistics[counter].Value;
        double y = b.Statistics.TryGetValue(counter, out (BaselineStatistic, double Value) s) ? s.Value : x;
        return x > 0 && y > 0 ? x / y : 1;
    }

    private static string Describe(Run a, Run b) => string.Join(", ", a.Statistics
        .Where(s => s.Value.Value > 0 && b.Statistics.ContainsKey(s.Key))
        .Select(s => string.Create(
            CultureInfo.InvariantCulture,
            $"{s.Key} {s.Value.Statistic} {CounterVerdict.Number(s.Value.Value)} and {CounterVerdict.Number(b.Statistics[s.Key].Value)}")));

    /// <summary>One measurement with the statistic of each of its statistical counters and a speed score (lower is faster).</summary>
    private sealed record Run(
        PerfResult Result, BaselineRecord Record, Dictionary<string, (BaselineStatistic Statistic, double Value)> Statistics, double Score)
    {
        public static Run Of(PerfResult result, VerdictPolicy policy)
        {
            BaselineRecord record = BaselineRecord.FromResult(result);
            var statistics = new Dictionary<string, (BaselineStatistic, double)>(StringComparer.Ordinal);
            double score = 0;
            foreach (BaselineCounter counter in record.Counters)
            {
                CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
                if (rule.Mode != VerdictMode.Statistical
                    || BaselineComparer.Judgeable(rule.Statistic, counter.PerOperation.Samples) is not { } statistic)
                {
                    continue;
                }

                double value = counter.PerOperation.Get(statistic);
                statistics[counter.Name] = (statistic, value);

                // Time decides which of two agreeing runs is the steadier one: disturbance only ever slows a run down.
                if (value > 0 && KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike)
                    score += Math.Log(value);
            }

            return new Run(result, record, statistics, score);
        }
    }
}
