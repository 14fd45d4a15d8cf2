using System.Globalization;
using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Baselines;

/// <summary>Compares a measurement with a baseline file, counter by counter (docs/ARCHITECTURE.md, "Baselines and verdicts").</summary>
internal static class BaselineComparer
{
    /// <summary>One verdict per counter of <paramref name="current"/>, in its order.</summary>
    /// <param name="baseline">The baseline file, or <see langword="null"/> when there is none.</param>
    /// <param name="machine">The machine <paramref name="current"/> was measured on.</param>
    /// <param name="current">The measurement.</param>
    /// <param name="policy">The rules; <see cref="VerdictPolicy.Default"/> when <see langword="null"/>.</param>
    /// <returns>The verdicts.</returns>
    /// <remarks>
    /// Each counter is compared with the entry of this very machine when it holds the counter; otherwise with the
    /// most recently recorded entry whose machine is comparable for that counter (<see cref="BaselinePortability"/>),
    /// so allocated bytes recorded on a laptop still guard a CI runner with the same runtime.
    /// </remarks>
    public static IReadOnlyList<CounterVerdict> Compare(BaselineFile? baseline, MachineFingerprint machine, BaselineRecord current, VerdictPolicy? policy = null)
    {
        ArgumentNullException.ThrowIfNull(machine);
        ArgumentNullException.ThrowIfNull(current);
        policy ??= VerdictPolicy.Default;
        var verdicts = new List<CounterVerdict>(current.Counters.Count);
        foreach (BaselineCounter counter in current.Counters)
            verdicts.Add(CompareCounter(baseline, machine, counter, policy.GetRule(counter.Name, counter.Kind)));

        return verdicts;
    }

    private static CounterVerdict CompareCounter(BaselineFile? baseline, MachineFingerprint machine, BaselineCounter counter, CounterVerdictRule rule)
    {
        if (baseline is null)
            return NotCompared(counter, rule, CounterVerdictStatus.NoBaseline, null, "no baseline file");

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

        if (match is null)
        {
            string others = rejections.Count switch
            {
                0 => string.Empty,
                1 => $" (1 entry from another machine: {rejections[0]})",
                _ => string.Create(CultureInfo.InvariantCulture, $" ({rejections.Count} entries from other machines, e.g. {rejections[0]})"),
            };
            return NotCompared(counter, rule, CounterVerdictStatus.NoBaseline, null, "no baseline for this machine" + others);
        }

        BaselineCounter reference = match.Record.Find(counter.Name)!;
        string? incompatibility =
            reference.Unit != counter.Unit ? $"the unit changed ({reference.Unit} → {counter.Unit})"
            : reference.Kind != counter.Kind ? $"the kind changed ({reference.Kind} → {counter.Kind})"

            // A distribution of single operations is wider than one of per-sample means: d would mislead.
            : (reference.OperationsPerSample == 1) != (counter.OperationsPerSample == 1)
                ? string.Create(CultureInfo.InvariantCulture, $"operations per sample changed between 1 and more ({reference.OperationsPerSample:0.##} → {counter.OperationsPerSample:0.##}), so one is a per-operation distribution and the other a distribution of means")
            : null;

        HdrHistogramSummary before = reference.Histogram.GetSummary(), after = counter.Histogram.GetSummary();
        if (incompatibility is null && (before.TotalCount == 0 || after.TotalCount == 0))
            incompatibility = before.TotalCount == 0 ? "the baseline histogram is empty" : "the measured histogram is empty";

        if (incompatibility is not null)
            return NotCompared(counter, rule, CounterVerdictStatus.NotComparable, match.Machine.Id, "not comparable: " + incompatibility);

        // Per operation, from the exact statistics of the samples: the pilot may group a different number of operations
        // per sample on each run, and a bucket's value would show 64 allocated bytes as 64.015.
        double b = reference.PerOperation.Get(rule.Statistic);
        double a = counter.PerOperation.Get(rule.Statistic);
        double change = b != 0 ? (a - b) / b : a == 0 ? 0 : double.PositiveInfinity;

        if (rule.Mode == VerdictMode.Exact)
        {
            // "Exact" means equal within what the stored numbers resolve: a baseline rounds to 7 significant digits (or, when
            // written before it stored exact statistics, holds bucket values within its relative error). One byte more per
            // operation (88 → 89, +1.1%) stays far outside that.
            double resolution = (reference.PerOperation.Precision + counter.PerOperation.Precision) * Math.Max(Math.Abs(a), Math.Abs(b));
            CounterVerdictStatus exact = a - b > resolution ? CounterVerdictStatus.Regressed : b - a > resolution ? CounterVerdictStatus.Improved : CounterVerdictStatus.Pass;
            return new CounterVerdict(counter.Name, counter.Unit, exact, rule.Mode, rule.Statistic, b, a, change, null, match.Machine.Id, null);
        }

        // The robust d: the verdict-quality experiment (bench/RESULTS.md, "verdicts") found the classic d of timing
        // samples within ±0.4 whether the code was unchanged or 30% slower, because a few preempted samples own the
        // mean and the standard deviation; the median shift over the IQR separated every arm.
        double d = HdrHistogramSummary.RobustCohensD(before, after, reference.OperationsPerSample, counter.OperationsPerSample);

        // A regression is a rise and an improvement a fall whatever the thresholds: with both at 0 an unchanged counter
        // would otherwise "regress".
        CounterVerdictStatus status =
            change > 0 && d >= rule.MinCohensD && change >= rule.MinRelativeChange ? CounterVerdictStatus.Regressed
            : change < 0 && d <= -rule.MinCohensD && change <= -rule.MinRelativeChange ? CounterVerdictStatus.Improved
            : CounterVerdictStatus.Pass;
        return new CounterVerdict(counter.Name, counter.Unit, status, rule.Mode, rule.Statistic, b, a, change, d, match.Machine.Id, null);
    }

    private static CounterVerdict NotCompared(BaselineCounter counter, CounterVerdictRule rule, CounterVerdictStatus status, string? machineId, string reason) =>
        new(counter.Name, counter.Unit, status, rule.Mode, rule.Statistic, null, null, null, null, machineId, reason);
}
