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

    /// <summary>Levenshtein distance, ignoring case, with two rolling rows.</summary>
    public static int EditDistance(string a, string b)
    {
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
                int substitution = previous[j - 1] + (ca == char.ToLowerInvariant(b[j - 1]) ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j], current[j - 1]) + 1);
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }
}
