namespace Picollo.Counters;

/// <summary>
/// Counters that do not count, grouped by reason: on a VM without a PMU every hardware counter fails for the same reason,
/// and one line naming them all reads better than one remedy paragraph per counter. Used by the perf-test reports, the
/// picollo tool and the span table alike.
/// </summary>
internal static class UnavailableReasons
{
    /// <summary>
    /// The counters grouped by reason, the reason naming all of them where it named one (<c>opening 'cycles', 'instructions'</c>).
    /// </summary>
    /// <param name="unavailable">Each counter that does not count and its reason.</param>
    /// <returns>One group per distinct reason, in the order its first counter appears.</returns>
    public static IEnumerable<(IReadOnlyList<string> Names, string Reason)> Group(IEnumerable<(string Name, string? Reason)> unavailable)
    {
        // Reasons quote the counter they are about ("opening 'cycles'"), so they are compared with the name taken out.
        const char Placeholder = '\u0000';
        return unavailable
            .DistinctBy(static c => (c.Name, c.Reason))
            .GroupBy(static c => (c.Reason ?? "No reason given.").Replace(c.Name, Placeholder.ToString(), StringComparison.Ordinal), StringComparer.Ordinal)
            .Select(static group =>
            {
                string[] names = [.. group.Select(static c => c.Name)];
                return ((IReadOnlyList<string>)names, group.Key.Replace(Placeholder.ToString(), string.Join("', '", names), StringComparison.Ordinal));
            });
    }
}
