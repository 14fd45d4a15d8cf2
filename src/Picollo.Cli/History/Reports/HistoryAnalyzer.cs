using Picollo.Cli.Ab;
using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Store;
using Picollo.Counters;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// Finds the change points of every series in a store. An acknowledged change splits its series: the runs after it are
/// the new normal, judged on their own, and the runs before it are never compared with them again (docs/HISTORY.md,
/// "Acknowledging a change").
/// </summary>
internal static class HistoryAnalyzer
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<ChangePointOptions, int> s_fewestRuns = new();

    /// <summary>Every series whose test <paramref name="filter"/> matches (all when null), on one branch or all.</summary>
    public static IReadOnlyList<HistorySeriesAnalysis> Analyze(
        IHistoryStore store, TestNameFilter? filter, string? branch, ChangePointOptions options)
    {
        var analyses = new List<HistorySeriesAnalysis>();
        foreach (HistorySeriesKey key in store.SeriesKeys(null))
        {
            if (filter is not null && !filter.Matches(key.Test))
                continue;
            IReadOnlyList<HistoryPoint> points = store.Series(key, branch);
            if (points.Count > 0)
                analyses.Add(Analyze(key, points, store.Acknowledgements(key), options));
        }

        return analyses;
    }

    /// <summary>One series: the detector on each stretch between acknowledged changes, the acknowledged changes between them.</summary>
    public static HistorySeriesAnalysis Analyze(
        HistorySeriesKey key, IReadOnlyList<HistoryPoint> points, IReadOnlyList<HistoryAcknowledgement> acknowledgements,
        ChangePointOptions options)
    {
        double[] values = [.. points.Select(static p => p.Value)];
        SortedDictionary<int, HistoryAcknowledgement> splits = Splits(points, acknowledgements);
        var changes = new List<HistoryChange>();
        int start = 0;
        foreach (int end in splits.Keys.Append(points.Count))
        {
            if (start > 0)
                changes.Add(Acknowledged(points, values, start, splits[start], options.MinSegment));
            var stretch = new ArraySegment<double>(values, start, end - start);
            foreach (ChangePoint found in key.Exact ? ExactChanges(key, stretch) : ChangePointDetector.Find(stretch, false, options))
            {
                ChangePoint point = found with { Index = found.Index + start };
                changes.Add(new HistoryChange(point, points[point.Index - 1], points[point.Index], null));
            }

            if (end < points.Count)
                start = end;
        }

        // What a check can see is the newest stretch: the runs before an acknowledged change are never compared with it.
        int newest = points.Count - start;
        bool judged = key.Exact ? newest >= 2 : newest >= FewestRuns(options);
        return new HistorySeriesAnalysis(key, points, changes, judged, start);
    }

    // The first run of each acknowledged commit, by index; a commit not in this series (another machine's, another
    // branch's) splits nothing here.
    private static SortedDictionary<int, HistoryAcknowledgement> Splits(
        IReadOnlyList<HistoryPoint> points, IReadOnlyList<HistoryAcknowledgement> acknowledgements)
    {
        var splits = new SortedDictionary<int, HistoryAcknowledgement>();
        foreach (HistoryAcknowledgement acknowledgement in acknowledgements)
        {
            for (int i = 1; i < points.Count; i++)
            {
                if (SameCommit(points[i].Commit, acknowledgement.Commit))
                {
                    splits.TryAdd(i, acknowledgement);
                    break;
                }
            }
        }

        return splits;
    }

    /// <summary>
    /// The fewest runs in which the detector can find any change: a step of half the runs against the other half, as clear
    /// as a step can be, tried from two minimum segments up. More than two segments, because the significance test has
    /// to reach its level on ranks (at the default settings 14 runs, 7 against 7: docs/HISTORY.md); a check on fewer runs
    /// could never fail, so it does not pass either.
    /// </summary>
    public static int FewestRuns(ChangePointOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);

        // Asked once per series: a store of 1,000 series asks it 1,000 times with the same settings.
        return s_fewestRuns.GetOrAdd(options, Search);
    }

    private static int Search(ChangePointOptions options)
    {
        for (int runs = 2 * options.MinSegment; runs <= options.Window; runs += 2)
        {
            double[] step = [.. Enumerable.Range(0, runs).Select(i => i < runs / 2 ? 100.0 + (i % 2) : 200.0 + (i % 2))];
            if (ChangePointDetector.Find(step, exact: false, options).Count > 0)
                return runs;
        }

        return options.Window;
    }

    /// <summary>
    /// An exact series' changes: each value beyond the tolerance picollo ab judges exact counters with, from the level
    /// before it (a simulated counter's mean per operation moves by a few thousandths between runs of unchanged code:
    /// 19.996 and 19.997 branch misses is not a change). Against the level, not the previous value, so that no drift of
    /// steps each under the tolerance adds up unseen.
    /// </summary>
    public static IEnumerable<ChangePoint> ExactChanges(HistorySeriesKey key, IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(values);
        bool simulated = KnownCounters.SimulatedName(key.Counter) is not null;
        for (int i = 1, level = 0; i < values.Count; i++)
        {
            double before = values[level], after = values[i];
            if (Math.Abs(after - before) <= AbStatistics.ExactChangeTolerance(key.Counter, simulated, before, after))
                continue;
            double magnitude = before == 0 ? double.PositiveInfinity : (after / before) - 1;
            yield return new ChangePoint(i, before, after, magnitude, 0);
            level = i;
        }
    }

    /// <summary>A commit as stored against one as typed: either may be abbreviated (7 characters or more), case ignored.</summary>
    public static bool SameCommit(string? stored, string typed) =>
        stored is not null && typed.Length >= 7
        && (stored.StartsWith(typed, StringComparison.OrdinalIgnoreCase) || typed.StartsWith(stored, StringComparison.OrdinalIgnoreCase));

    // An acknowledged change as the report shows it: the medians of up to a minimum segment of runs on each side.
    private static HistoryChange Acknowledged(
        IReadOnlyList<HistoryPoint> points, double[] values, int index, HistoryAcknowledgement acknowledgement, int segment)
    {
        double before = Median(values.AsSpan(Math.Max(0, index - segment), Math.Min(segment, index)));
        double after = Median(values.AsSpan(index, Math.Min(segment, values.Length - index)));
        double magnitude = before == 0 ? (after == 0 ? 0 : double.PositiveInfinity) : (after / before) - 1;
        var point = new ChangePoint(index, before, after, magnitude, double.NaN);
        return new HistoryChange(point, points[index - 1], points[index], acknowledgement);
    }

    private static double Median(ReadOnlySpan<double> values)
    {
        double[] sorted = values.ToArray();
        Array.Sort(sorted);
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
