namespace Picollo.PerfEvents;

/// <summary>The "did you mean" part of an unknown-name message: the valid names closest to what was written.</summary>
internal static class PerfEventSuggestions
{
    private const int MaxSuggestions = 5;

    /// <summary>The candidates nearest to <paramref name="input"/> by edit distance (ignoring case), nearest first, at most five.</summary>
    public static List<string> Closest(string input, IEnumerable<string> candidates) =>
        [.. candidates
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .Select(c => (Name: c, Distance: EditDistance(input, c)))
            .OrderBy(static c => c.Distance)
            .ThenBy(static c => c.Name, StringComparer.Ordinal)
            .Take(MaxSuggestions)
            .Select(static c => c.Name)];

    /// <summary>The names joined with commas, or <c>(none)</c>: a message never ends on an empty list.</summary>
    public static string ListOrNone(IEnumerable<string> names)
    {
        string list = string.Join(", ", names);
        return list.Length == 0 ? "(none)" : list;
    }

    /// <summary>
    /// The names near enough to <paramref name="input"/> to be what was meant, at most <paramref name="max"/>: those of
    /// <paramref name="preferred"/> first (nearest first), then the <paramref name="others"/>. Unlike <see cref="Closest"/>,
    /// nothing far is offered: "allocated-byte" once drew "LLC-load-misses, LLC-loads" from the perf names, the nearest of
    /// a list with nothing near.
    /// </summary>
    /// <param name="input">The name as written.</param>
    /// <param name="preferred">The names offered first when near (Picollo's own counters).</param>
    /// <param name="others">The other valid names (perf events).</param>
    /// <param name="max">The most names returned.</param>
    /// <returns>The names, possibly none.</returns>
    public static List<string> Nearest(string input, IEnumerable<string> preferred, IEnumerable<string> others, int max = 3)
    {
        // A third of the name, at least 2: a dropped letter and a swapped pair are what a typo is; more is another name.
        int limit = Math.Max(2, input.Length / 3);
        List<string> Near(IEnumerable<string> names) =>
            [.. names
                .Distinct(StringComparer.OrdinalIgnoreCase)
                .Select(n => (Name: n, Distance: EditDistance(input, n)))
                .Where(n => n.Distance <= limit)
                .OrderBy(static n => n.Distance)
                .ThenBy(static n => n.Name, StringComparer.Ordinal)
                .Select(static n => n.Name)];
        List<string> own = Near(preferred);
        return [.. own.Concat(Near(others).Where(n => !own.Contains(n, StringComparer.OrdinalIgnoreCase))).Take(max)];
    }

    /// <summary>
    /// The optimal string alignment distance (Levenshtein with a swap of two adjacent letters as one edit), ignoring case,
    /// with three rolling rows: "alloacted" is one typo away from "allocated", not two.
    /// </summary>
    public static int EditDistance(string a, string b)
    {
        var beforePrevious = new int[b.Length + 1];
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (int j = 0; j <= b.Length; j++)
            previous[j] = j;
        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            char ca = char.ToLowerInvariant(a[i - 1]);
            for (int j = 1; j <= b.Length; j++)
            {
                char cb = char.ToLowerInvariant(b[j - 1]);
                int substitution = previous[j - 1] + (ca == cb ? 0 : 1);
                int best = Math.Min(substitution, Math.Min(previous[j], current[j - 1]) + 1);
                if (i > 1 && j > 1 && ca == char.ToLowerInvariant(b[j - 2]) && char.ToLowerInvariant(a[i - 2]) == cb)
                    best = Math.Min(best, beforePrevious[j - 2] + 1);
                current[j] = best;
            }

            (beforePrevious, previous, current) = (previous, current, beforePrevious);
        }

        return previous[b.Length];
    }
}
