using Picollo.Cli.Ab;
using Picollo.Counters;

namespace Picollo.Cli.Bisect;

/// <summary>
/// Reads <c>picollo ab</c>'s verdicts for <c>picollo bisect</c>: the changes the bad commit shows against the good one, and
/// whether a step's commit shows the one hunted.
/// </summary>
internal static class BisectJudge
{
    /// <summary>
    /// Every change the bad commit measured against the good one, the one to hunt first: exact and simulated counters before
    /// time (they decide a step in one pair, and a time change that comes with an allocation is usually the same commit's),
    /// the JIT's counters after the others, regressions before improvements, then in the tests' order.
    /// </summary>
    /// <param name="results">The tests of the bad commit judged against the good one.</param>
    /// <param name="options">The threshold and pairs they were judged with.</param>
    /// <returns>The changes; empty when the tests measured unchanged (or could not be judged).</returns>
    public static IReadOnlyList<BisectChange> Changes(IReadOnlyList<AbTestResult> results, AbOptions options)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(options);
        var changes = new List<BisectChange>();
        foreach (AbTestResult test in results.Where(static t => t.Verdict is not (AbVerdict.New or AbVerdict.Removed)))
        {
            foreach (AbMeasurement m in test.Measurements)
            {
                foreach (AbExactCounter e in m.Exact.Where(static e => e.Verdict is AbVerdict.Regressed or AbVerdict.Improved))
                    changes.Add(new BisectChange(test.Test, test.Project, m.Key, e.Name, e.Verdict, Exact: true, BisectChange.Means(e)));
                if (m.Time is { } time && AbStatistics.Decide(time, options, final: true) is AbVerdict.Regressed or AbVerdict.Improved)
                {
                    AbVerdict direction = AbStatistics.Decide(time, options, final: true);
                    changes.Add(new BisectChange(
                        test.Test, test.Project, m.Key, time.Counter, direction, Exact: false, BisectChange.Ratio(time)));
                }
            }
        }

        return [.. changes
            .OrderBy(static c => c.Exact ? 0 : 1)
            .ThenBy(static c => IsJit(c.Counter) ? 1 : 0)
            .ThenBy(static c => c.Direction)];
    }

    // The JIT's counters are exact within a process but follow when tiering happened (Markdig's pipe-table test read
    // jit-il-bytes 6.89 → 1.41 bytes/op between two commits of unchanged tiering code: bench/RESULTS.md, "picollo bisect on
    // Markdig's history"): the code's own counts (allocations, simulated instructions) are hunted before them.
    private static bool IsJit(string counter) => counter is CounterNames.JitMethods or CounterNames.JitIlBytes;

    /// <summary>
    /// Whether a step's commit, measured against the good one, shows <paramref name="change"/>: bad when its counter moved the
    /// same way (an exact counter by its exact verdict, time by <c>picollo ab</c>'s verdict after the pairs run); good when it
    /// did not (unchanged, or moved the other way); undecided when the time stayed inconclusive; skipped when the test or the
    /// counter was not measured.
    /// </summary>
    /// <param name="change">The change hunted.</param>
    /// <param name="results">The step's tests judged against the good commit.</param>
    /// <param name="options">The threshold and pairs.</param>
    /// <returns>The step's verdict and what it measured.</returns>
    public static BisectStep Step(BisectChange change, IReadOnlyList<AbTestResult> results, AbOptions options)
    {
        ArgumentNullException.ThrowIfNull(change);
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(options);
        AbTestResult? test = results.FirstOrDefault(t => t.Test.FullName == change.Test.FullName);
        AbMeasurement? m = test?.Measurements.FirstOrDefault(m => m.Key == change.Key);
        if (test is null || m is null)
            return new BisectStep(BisectVerdict.Skipped, BisectMessages.NotMeasured(change, test?.Problems ?? []));

        if (change.Exact)
        {
            AbExactCounter? counter = m.Exact.FirstOrDefault(e => e.Name == change.Counter);
            return counter is null
                ? new BisectStep(BisectVerdict.Skipped, BisectMessages.NotMeasured(change, test.Problems))
                : new BisectStep(
                    counter.Verdict == change.Direction ? BisectVerdict.Bad : BisectVerdict.Good,
                    $"{counter.Name} {BisectChange.Means(counter)}");
        }

        if (m.Time is not { } time || time.Counter != change.Counter)
            return new BisectStep(BisectVerdict.Skipped, BisectMessages.NotMeasured(change, test.Problems));
        AbVerdict verdict = AbStatistics.Decide(time, options, final: true);
        string summary = $"{time.Counter} {BisectChange.Ratio(time)}, {AbReport.Describe(verdict, time, options.Threshold)}";
        return verdict == change.Direction ? new BisectStep(BisectVerdict.Bad, summary)
            : verdict == AbVerdict.Inconclusive ? new BisectStep(BisectVerdict.Undecided, summary)
            : new BisectStep(BisectVerdict.Good, summary);
    }
}
