using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Paired;

namespace Picollo.Cli.Ab;

/// <summary>
/// The verdicts of <c>picollo ab</c> (docs/VERDICTS.md, "Base against head"). Inside one process pair the two sides'
/// samples were taken in lock-step, and the pair's ratio is the paired statistic of <c>Perf.Compare</c>: the median of
/// batch floor ratios. Across process pairs, each pair's ratio is <b>one</b> value: a process settles on one of a few
/// speeds (code placement, the branch predictor's aliasing, which core of the host), so the thousands of samples inside a
/// pair share that level and say nothing about the next pair's. The interval is Student's t over the pairs' log-ratios,
/// as many values as there were process pairs.
/// </summary>
internal static class AbStatistics
{
    /// <summary>
    /// The confidence of the equivalence interval: "unchanged" is two one-sided tests at 5 % each that the change is smaller
    /// than the threshold, the standard test of equivalence; a change is claimed at the run's own confidence (99 %). At 99 %
    /// both ways, an unchanged test needed its 10 pairs' ratios within about ±1 % to be called so, and most ended
    /// "inconclusive" (docs/VERDICTS.md, "Base against head").
    /// </summary>
    public const double EquivalenceConfidence = 0.90;

    /// <summary>
    /// After the most pairs, a run's interval (at its own confidence, 99 %) inside ±this many thresholds is "unchanged
    /// within" its bound: the run cannot prove the threshold, but it proved the bound it states. The run's interval, not the
    /// equivalence one: in bench ab a +3.6 % change read 90 % interval +0.3 … +3.3 % after 10 pairs, and "unchanged within
    /// ±3.3 %" would have been false; its 99 % interval (−0.9 … +4.6 %) holds it.
    /// </summary>
    public const double CapBoundInThresholds = 2;

    /// <summary>Exact counters differ when their means per operation differ by more than this (rounding of a mean of integers).</summary>
    public const double ExactTolerance = 0.5;

    /// <summary>Judges a test's measurements from its process pairs.</summary>
    /// <param name="pairs">The pairs run so far.</param>
    /// <param name="options">Threshold, confidence, pairs.</param>
    /// <param name="final">Whether no more pairs will run: an interval that still straddles takes its final verdict.</param>
    /// <returns>Per measurement key, in the order the head measured them (then keys only the base had).</returns>
    public static IReadOnlyList<AbMeasurement> Judge(IReadOnlyList<AbPairOutcome> pairs, AbOptions options, bool final)
    {
        ArgumentNullException.ThrowIfNull(pairs);
        ArgumentNullException.ThrowIfNull(options);
        var keys = new List<string>();
        IEnumerable<PairedRecord> records = pairs.SelectMany(static p => p.Measurements)
            .Where(static r => r.Kind == "measurement")
            .OrderBy(static r => r.Side == "head" ? 0 : 1);
        foreach (PairedRecord record in records)
        {
            if (!keys.Contains(record.Key))
                keys.Add(record.Key);
        }

        var measurements = new List<AbMeasurement>();
        foreach (string key in keys)
        {
            var both = new List<(PairedRecord Base, PairedRecord Head)>();
            var baseRecords = new List<PairedRecord>();
            var headRecords = new List<PairedRecord>();
            foreach (AbPairOutcome pair in pairs)
            {
                PairedRecord? b = pair.Measurements.FirstOrDefault(r => r.Key == key && r.Side == "base");
                PairedRecord? h = pair.Measurements.FirstOrDefault(r => r.Key == key && r.Side == "head");
                if (b is not null)
                    baseRecords.Add(b);
                if (h is not null)
                    headRecords.Add(h);
                if (b is { IsPaired: true } && h is { IsPaired: true })
                    both.Add((b, h));
            }

            if (headRecords.Count == 0 || baseRecords.Count == 0)
            {
                measurements.Add(new AbMeasurement(key, headRecords.Count == 0 ? AbVerdict.Removed : AbVerdict.New, null, []));
                continue;
            }

            // Only the pairs whose two sides ran their final code, once there is one: a ratio of two tiers is not one of two
            // builds. Where no pair ran final code on both sides (a body that compiles code on every call), all of them.
            List<(PairedRecord Base, PairedRecord Head)> finalPairs =
                [.. both.Where(static p => p.Base.RanFinalCode && p.Head.RanFinalCode)];
            AbTimeEstimate? time = Time(finalPairs.Count > 0 ? finalPairs : both, options);
            IReadOnlyList<AbExactCounter> exact = Exact(Final(baseRecords), Final(headRecords));
            AbVerdict timeVerdict = time is null ? AbVerdict.NotJudged : Decide(time, options, final || time.Pairs >= options.MaxPairs);

            // Without a time counter, a test of simulated counters is decided by them, from its first pair: they repeat.
            bool simulatedOnly = time is null && exact.Any(static e => e.IsSimulated);
            AbVerdict verdict = exact.Any(static e => e.Verdict == AbVerdict.Regressed) ? AbVerdict.Regressed
                : (timeVerdict is AbVerdict.Unchanged || simulatedOnly) && exact.Any(static e => e.Verdict == AbVerdict.Improved)
                    ? AbVerdict.Improved
                : simulatedOnly ? AbVerdict.Unchanged
                : timeVerdict;
            int setAside = finalPairs.Count > 0 ? both.Count - finalPairs.Count : 0;
            measurements.Add(new AbMeasurement(key, verdict, time, exact) { SetAsidePairs = setAside });
        }

        return measurements;
    }

    /// <summary>
    /// The time verdict: unchanged when the equivalence interval (<see cref="EquivalenceConfidence"/>) lies inside
    /// ±threshold; regressed (improved) when the run's interval lies wholly beyond +threshold (−threshold). Otherwise more
    /// pairs are wanted (<see cref="AbVerdict.Inconclusive"/> while not final); once final, an interval wholly above 1 is
    /// regressed (certainly slower, and possibly by more than the threshold), wholly below 1 improved; one that holds 1 is
    /// unchanged within its bound when it lies inside ±<see cref="CapBoundInThresholds"/> thresholds, else inconclusive.
    /// </summary>
    /// <param name="time">The estimate.</param>
    /// <param name="options">The threshold and the least pairs.</param>
    /// <param name="final">Whether no more pairs will run.</param>
    /// <returns>The verdict.</returns>
    public static AbVerdict Decide(AbTimeEstimate time, AbOptions options, bool final)
    {
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(options);
        if (time.Pairs < Math.Min(options.MinPairs, options.MaxPairs) && !final)
            return AbVerdict.Inconclusive;
        if (double.IsNaN(time.Low) || double.IsNaN(time.High))
            return AbVerdict.Inconclusive;

        double up = 1 + options.Threshold, down = 1 / up;
        if (Inside(time.EquivalenceLow, time.EquivalenceHigh, up))
            return AbVerdict.Unchanged;
        if (time.Low > up)
            return AbVerdict.Regressed;
        if (time.High < down)
            return AbVerdict.Improved;
        if (!final)
            return AbVerdict.Inconclusive;
        return time.Low > 1 ? AbVerdict.Regressed
            : time.High < 1 ? AbVerdict.Improved
            : Inside(time.Low, time.High, 1 + (CapBoundInThresholds * options.Threshold)) ? AbVerdict.Unchanged
            : AbVerdict.Inconclusive;
    }

    /// <summary>
    /// Whether an unchanged verdict rests on the equivalence interval (inside ±threshold), so that interval and its bound
    /// are what it proved; else (after the most pairs, inside a wider bound) the run's interval is.
    /// </summary>
    /// <param name="time">The estimate.</param>
    /// <param name="threshold">The run's threshold.</param>
    /// <returns>Whether the equivalence interval lies inside ±threshold.</returns>
    public static bool IsEquivalent(AbTimeEstimate time, double threshold)
    {
        ArgumentNullException.ThrowIfNull(time);
        return Inside(time.EquivalenceLow, time.EquivalenceHigh, 1 + threshold);
    }

    // Whether an interval of ratios lies inside ±(up − 1): its ends inside (1 / up, up).
    private static bool Inside(double low, double high, double up) => low > 1 / up && high < up;

    /// <summary>
    /// Why a pair's time is set aside: either side's measurement ran code that was not final (its warmup stopped at the
    /// cap, or code was compiled on its measuring thread during the samples). Its ratio would be of two tiers, not of two
    /// builds.
    /// </summary>
    /// <param name="pair">The pair.</param>
    /// <returns>The side and its notes, e.g. <c>the base's code was not final (…)</c>; <see langword="null"/> when none.</returns>
    public static string? SetAside(AbPairOutcome pair)
    {
        ArgumentNullException.ThrowIfNull(pair);
        PairedRecord? notFinal = pair.Measurements.FirstOrDefault(static r => r.Kind == "measurement" && !r.RanFinalCode);
        return notFinal is null ? null : AbMessages.PairSetAside(notFinal.Side, string.Join(" ", notFinal.Notes));
    }

    /// <summary>Whether a verdict needs more pairs.</summary>
    /// <param name="verdict">A measurement's verdict before the final pair.</param>
    /// <returns><see langword="true"/> for <see cref="AbVerdict.Inconclusive"/>.</returns>
    public static bool WantsMorePairs(AbVerdict verdict) => verdict == AbVerdict.Inconclusive;

    /// <summary>
    /// The pooled time: per pair the median batch log-ratio of the time counter, then the mean of those and its Student-t
    /// interval over the pairs.
    /// </summary>
    private static AbTimeEstimate? Time(List<(PairedRecord Base, PairedRecord Head)> pairs, AbOptions options)
    {
        string? counter = null;
        var logs = new List<double>();
        foreach ((PairedRecord b, PairedRecord h) in pairs)
        {
            counter ??= TimeCounter(b, h);
            if (counter is null)
                continue;
            PairedRecordCounter? bc = b.Counters.FirstOrDefault(c => c.Name == counter && c.IsAvailable);
            PairedRecordCounter? hc = h.Counters.FirstOrDefault(c => c.Name == counter && c.IsAvailable);
            if (bc is not null && hc is not null && PairTime([.. bc.Samples], [.. hc.Samples]) is { } logRatio)
                logs.Add(logRatio);
        }

        if (counter is null || logs.Count == 0)
            return null;

        // Every pair counts, a pair that ran beside contention too: setting aside slow pairs or slow batches inside a pair
        // (tried in bench ab) never caught more and lost +5/+10 % word-count verdicts, each pair then resting on fewer batches.
        double[] ratios = [.. logs.Select(Math.Exp)];
        int n = logs.Count;
        double mean = logs.Average();
        if (n < 2)
            return new AbTimeEstimate(counter, ratios, Math.Exp(mean), double.NaN, double.NaN, options.Confidence, double.NaN);

        double sd = Math.Sqrt(logs.Sum(l => (l - mean) * (l - mean)) / (n - 1));
        double half = StudentT.Quantile(1 - ((1 - options.Confidence) / 2), n - 1) * sd / Math.Sqrt(n);
        double equivalenceConfidence = Math.Min(EquivalenceConfidence, options.Confidence);
        double equivalence = StudentT.Quantile(1 - ((1 - equivalenceConfidence) / 2), n - 1) * sd / Math.Sqrt(n);
        double dz = sd > 0 ? mean / sd : mean == 0 ? 0 : Math.CopySign(double.PositiveInfinity, mean);
        return new AbTimeEstimate(counter, ratios, Math.Exp(mean), Math.Exp(mean - half), Math.Exp(mean + half), options.Confidence, dz)
        {
            EquivalenceLow = Math.Exp(mean - equivalence),
            EquivalenceHigh = Math.Exp(mean + equivalence),
        };
    }

    /// <summary>One process pair's time: the median log-ratio of its batches (<see cref="PairedStatistics.BatchFloors"/>).</summary>
    /// <param name="baseSamples">The base's samples, in pair order.</param>
    /// <param name="headSamples">The head's.</param>
    /// <returns>The log-ratio head / base; <see langword="null"/> when under half the batches have floors above 0.</returns>
    public static double? PairTime(ulong[] baseSamples, ulong[] headSamples)
    {
        // A body that costs no more than the sample loop's own overhead leaves floors of 0, whose batches have no ratio:
        // with fewer than half the batches left, the pair has no time to give (an exact counter may still judge it).
        (double LogRatio, double LogFloor)[] batches = PairedStatistics.BatchFloors(baseSamples, headSamples);
        int expected = Math.Min(PairedStatistics.Batches, Math.Min(baseSamples.Length, headSamples.Length) / 2);
        if (batches.Length == 0 || batches.Length < (expected + 1) / 2)
            return null;
        return PairedStatistics.Interval([.. batches.Select(static b => b.LogRatio)], 0.5).Location;
    }

    // tsc when both sides counted it, else the first time counter both counted.
    private static string? TimeCounter(PairedRecord b, PairedRecord h)
    {
        IEnumerable<PairedRecordCounter> timeLike = b.Counters
            .Where(static c => c.IsAvailable && KnownCounters.Of(c.Name, c.Kind).IsTimeLike)
            .Where(c => h.Counters.Any(x => x.Name == c.Name && x.IsAvailable));
        return timeLike.FirstOrDefault(static c => c.Name == CounterNames.Tsc)?.Name ?? timeLike.FirstOrDefault()?.Name;
    }

    private static List<AbExactCounter> Exact(List<PairedRecord> baseRecords, List<PairedRecord> headRecords)
    {
        var exact = new List<AbExactCounter>();
        foreach (PairedRecordCounter counter in headRecords[0].Counters)
        {
            bool simulated = counter.Kind == CounterKind.Simulated;
            if (!counter.IsAvailable || !(simulated || KnownCounters.Of(counter.Name, counter.Kind).IsDeterministic))
                continue;
            double? b = PerOperation(baseRecords, counter.Name), h = PerOperation(headRecords, counter.Name);
            if (b is null || h is null)
                continue;

            double tolerance = ExactChangeTolerance(counter.Name, simulated, b.Value, h.Value);
            AbVerdict verdict = h.Value > b.Value + tolerance ? AbVerdict.Regressed
                : h.Value < b.Value - tolerance ? AbVerdict.Improved
                : AbVerdict.Unchanged;
            exact.Add(new AbExactCounter(counter.Name, counter.Unit, b.Value, h.Value, verdict) { IsSimulated = simulated });
        }

        return exact;
    }

    /// <summary>
    /// How far an exact counter's mean per operation may move between two measurements of unchanged code: the rounding of a
    /// mean of integers (<see cref="ExactTolerance"/>) for a deterministic counter; for a simulated one its near-exact rule's
    /// relative tolerance, at least its absolute one (docs/VERDICTS.md, "Simulated counters"). picollo ab and the history's
    /// exact series (a change at the first value beyond it) judge with the same.
    /// </summary>
    public static double ExactChangeTolerance(string name, bool simulated, double before, double after)
    {
        if (!simulated)
            return ExactTolerance;
        CounterVerdictRule rule = VerdictPolicy.Default.GetRule(name, CounterKind.Simulated);
        return Math.Max(rule.MinRelativeChange * Math.Max(Math.Abs(before), Math.Abs(after)), rule.MinAbsoluteChange);
    }

    // A side's records that ran final code, or all of them where none did: code that is not final allocates more (no
    // escape analysis at tier 0), and an exact counter must not call that a regression.
    private static List<PairedRecord> Final(List<PairedRecord> records) =>
        records.Any(static r => r.RanFinalCode) ? [.. records.Where(static r => r.RanFinalCode)] : records;

    // The mean per operation over every sample of every record of one side.
    private static double? PerOperation(List<PairedRecord> records, string name)
    {
        double sum = 0, operations = 0;
        foreach (PairedRecord record in records)
        {
            if (record.Counters.FirstOrDefault(c => c.Name == name && c.IsAvailable) is not { } counter)
                continue;
            foreach (ulong sample in counter.Samples)
                sum += sample;
            operations += (double)counter.Samples.Count * (counter.OperationsPerSample ?? record.OperationsPerSample);
        }

        return operations > 0 ? sum / operations : null;
    }
}
