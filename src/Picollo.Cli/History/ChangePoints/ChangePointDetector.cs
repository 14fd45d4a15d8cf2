namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// Finds where a results history changes level (docs/HISTORY.md, "Change points"): E-Divisive means
/// (Matteson and James 2014) as Apache Otava (Hunter, Fleming et al. 2023) and MongoDB's CI (Daly et al. 2020) apply it to
/// performance histories. A first pass searches overlapping windows by recursive bisection on the energy statistic, each
/// split kept when Student's t between its two sides passes a loose level; the merge pass then tests every candidate
/// against its final neighbours and drops the weakest until each is significant and large enough. An exact series (counts
/// that repeat to the unit) changes at each value that differs from the one before, with no statistics.
/// </summary>
internal static class ChangePointDetector
{
    /// <summary>The change points of <paramref name="series"/>, in index order.</summary>
    /// <param name="series">One value per run, oldest first: a time counter's P10, another counter's mean.</param>
    /// <param name="exact">The values are exact (instructions under simulation, allocated bytes): every differing value
    /// is a change.</param>
    /// <param name="options">The settings; <see cref="ChangePointOptions.Default"/> unless a test needs others.</param>
    /// <returns>The change points; none for a series shorter than two minimum segments (exact series apart). The rank
    /// test's least p-value for k runs against k is 2.4e-4 at k = 6 and 5.7e-5 at k = 7: at the default significance a
    /// history needs 14 runs before any change can show.</returns>
    /// <exception cref="ArgumentException">A value is NaN or infinite (the message names its index).</exception>
    /// <exception cref="ArgumentOutOfRangeException">A setting of <paramref name="options"/> is out of its range.</exception>
    public static IReadOnlyList<ChangePoint> Find(IReadOnlyList<double> series, bool exact, ChangePointOptions options)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        double[] values = Finite(series);
        if (exact)
            return ExactChanges(values);
        if (values.Length < 2 * options.MinSegment)
            return [];

        return Merge(values, FirstPass(values, options), options);
    }

    /// <summary>After / before − 1, and what it means when the level before was 0.</summary>
    /// <param name="before">The level before.</param>
    /// <param name="after">The level after.</param>
    /// <returns>The relative change; 0 from 0 to 0, +∞ from 0 to anything else.</returns>
    public static double Magnitude(double before, double after) =>
        before != 0 ? (after / before) - 1 : after == 0 ? 0 : double.PositiveInfinity;

    // A NaN or infinite value would reach the statistics as NaN and make every test pass or fail silently: reported here,
    // with the run it came from.
    private static double[] Finite(IReadOnlyList<double> series)
    {
        double[] values = new double[series.Count];
        for (int i = 0; i < values.Length; i++)
        {
            double value = series[i];
            if (!double.IsFinite(value))
            {
                throw new ArgumentException(ChangePointMessages.NotFinite(i, value), nameof(series));
            }

            values[i] = value;
        }

        return values;
    }

    private static ChangePoint[] ExactChanges(double[] values)
    {
        var changes = new List<ChangePoint>();
        for (int i = 1; i < values.Length; i++)
        {
            if (values[i] != values[i - 1])
                changes.Add(new ChangePoint(i, values[i - 1], values[i], Magnitude(values[i - 1], values[i]), 0));
        }

        return [.. changes];
    }

    // Windows of options.Window runs, each starting half a window after the one before. Why windows: the energy
    // statistic's search is quadratic in the points it sees, so a history of thousands of runs searched whole costs
    // millions of pairs per split, and a small change late in a long history is drowned by the runs far from it (Fleming
    // et al. 2023, "fixed-size windows"). A window costs O(Window²), a series of n runs O(n · Window), and a window's
    // candidates depend only on the runs inside it, so appending runs changes only the last windows' candidates: the
    // history's older change points stay where they were. Hunter starts the next window at the last candidate found
    // instead; measured on the bench's histories, a candidate the merge drops then hid a step just after it (a +50 % step
    // at run 49 reported at 54), so the windows here overlap plainly and the merge keeps candidates a minimum segment apart.
    private static SortedSet<int> FirstPass(double[] values, ChangePointOptions options)
    {
        var found = new SortedSet<int>();
        for (int start = 0; ; start += options.Window / 2)
        {
            int end = Math.Min(start + options.Window, values.Length);
            var energy = new EnergyStatistic(values, start, end);
            Bisect(values, energy, start, end, options, found);
            if (end == values.Length)
                return found;
        }
    }

    // E-Divisive's recursive bisection: the best split of [from, to) by the energy statistic, kept when both sides hold a
    // minimum segment (BestSplit's bound) and the test finds them different at the first pass's level; then each side
    // is searched the same way.
    private static void Bisect(double[] values, EnergyStatistic energy, int from, int to, ChangePointOptions options, SortedSet<int> found)
    {
        int split = energy.BestSplit(from, to, options.MinSegment);
        if (split < 0 || SegmentTest.PValue(values, from, split, to, options.Test) >= options.FirstPassAlpha)
            return;

        found.Add(split);
        Bisect(values, energy, from, split, options, found);
        Bisect(values, energy, split, to, options, found);
    }

    // Hunter's merge: each candidate tested against the segments up to its neighbours; while two candidates (from
    // overlapping windows) lie closer than a minimum segment, the less significant goes; else while one is not
    // significant at options.Alpha, the least significant goes; else while one changes less than options.MinMagnitude,
    // the smallest goes. The dropped one's neighbours, whose segments just grew, are tested again. Dropping one at a time matters: two weak
    // candidates beside a true change each split its evidence, and the change stands once one of them is gone.
    private static ChangePoint[] Merge(double[] values, SortedSet<int> candidates, ChangePointOptions options)
    {
        var points = new List<ChangePoint>();
        foreach (int index in candidates)
            points.Add(new ChangePoint(index, 0, 0, 0, 1));
        for (int i = 0; i < points.Count; i++)
            points[i] = Measured(values, points, i, options.Test);

        while (points.Count > 0)
        {
            int weakest = Weakest(points, options);
            if (weakest < 0)
                break;

            points.RemoveAt(weakest);
            if (weakest > 0)
                points[weakest - 1] = Measured(values, points, weakest - 1, options.Test);
            if (weakest < points.Count)
                points[weakest] = Measured(values, points, weakest, options.Test);
        }

        return [.. points];
    }

    // The candidate to drop: the less significant of two too close, else the least significant when it fails
    // options.Alpha, else the smallest when it is below options.MinMagnitude; -1 when every candidate stands.
    private static int Weakest(List<ChangePoint> points, ChangePointOptions options)
    {
        int leastSignificant = 0, smallest = 0;
        for (int i = 1; i < points.Count; i++)
        {
            if (points[i].Index - points[i - 1].Index < options.MinSegment)
                return points[i].PValue > points[i - 1].PValue ? i : i - 1;
            if (points[i].PValue > points[leastSignificant].PValue)
                leastSignificant = i;
            if (Math.Abs(points[i].Magnitude) < Math.Abs(points[smallest].Magnitude))
                smallest = i;
        }

        if (Math.Abs(points[smallest].Magnitude) < options.MinMagnitude)
            return smallest;
        return points[leastSignificant].PValue >= options.Alpha ? leastSignificant : -1;
    }

    // The candidate at position i tested between its neighbours (the series' ends for the first and the last).
    private static ChangePoint Measured(double[] values, List<ChangePoint> points, int i, ChangePointTest test)
    {
        int from = i > 0 ? points[i - 1].Index : 0;
        int to = i + 1 < points.Count ? points[i + 1].Index : values.Length;
        int index = points[i].Index;
        double before = SegmentTest.Median(values, from, index), after = SegmentTest.Median(values, index, to);
        return new ChangePoint(index, before, after, Magnitude(before, after), SegmentTest.PValue(values, from, index, to, test));
    }
}
