using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Store;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// Finds the change points of every series in a store. An acknowledged change splits its series: the runs after it are
/// the new normal, judged on their own, and the runs before it are never compared with them again (issue 52,
/// "Acknowledging"; docs/HISTORY.md).
/// </summary>
internal static class HistoryAnalyzer
{
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
        bool judged = false;
        foreach (int end in splits.Keys.Append(points.Count))
        {
            if (start > 0)
                changes.Add(Acknowledged(points, values, start, splits[start], options.MinSegment));
            var stretch = new ArraySegment<double>(values, start, end - start);
            judged |= stretch.Count >= 2 * options.MinSegment;
            foreach (ChangePoint found in ChangePointDetector.Find(stretch, key.Exact, options))
            {
                ChangePoint point = found with { Index = found.Index + start };
                changes.Add(new HistoryChange(point, points[point.Index - 1], points[point.Index], null));
            }

            start = end;
        }

        // A series whose newest stretch (after its last acknowledged change) is still short is judged on what it has.
        return new HistorySeriesAnalysis(key, points, changes, judged || key.Exact && points.Count >= 2);
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
        return new HistoryChange(new ChangePoint(index, before, after, magnitude, double.NaN), points[index - 1], points[index], acknowledgement);
    }

    private static double Median(ReadOnlySpan<double> values)
    {
        double[] sorted = values.ToArray();
        Array.Sort(sorted);
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
