namespace Picollo.Counters;

/// <summary>
/// Counters that do not count, grouped by reason: on a VM without a PMU every hardware counter fails for the same reason,
/// and one line naming them all reads better than one remedy paragraph per counter. Used by the perf-test reports, the
/// picollo tool and the span table alike.
/// </summary>
internal static class UnavailableReasons
{
    /// <summary>
    /// The counters grouped by reason. A reason that quotes its counter (<c>opening 'cycles'</c>) is compared with the quoted
    /// name taken out and names all of its group's counters (<c>opening 'cycles', 'instructions'</c>); any other reason is
    /// grouped by its exact text and left as it is.
    /// </summary>
    /// <param name="unavailable">Each counter that does not count and its reason.</param>
    /// <returns>One group per distinct reason, in the order its first counter appears.</returns>
    public static IEnumerable<(IReadOnlyList<string> Names, string Reason)> Group(IEnumerable<(string Name, string? Reason)> unavailable)
    {
        // Only the quoted form is taken out: a bare name can also be a word of the prose ("cycles", "faults"), and a reason
        // that names several counters itself must not have one of them replaced by the whole group.
        const string Placeholder = "\u0000";
        return unavailable
            .DistinctBy(static c => (c.Name, c.Reason))
            .GroupBy(
                static c => (c.Reason ?? "No reason given.").Replace(Quoted(c.Name), Placeholder, StringComparison.Ordinal),
                StringComparer.Ordinal)
            .Select(static group =>
            {
                string[] names = [.. group.Select(static c => c.Name).Distinct(StringComparer.Ordinal)];
                string reason = group.Key.Replace(Placeholder, string.Join(", ", names.Select(Quoted)), StringComparison.Ordinal);
                return ((IReadOnlyList<string>)names, reason);
            });
    }

    private static string Quoted(string name) => "'" + name + "'";
}
