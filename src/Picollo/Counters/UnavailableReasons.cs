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

    /// <summary>
    /// The cause of a reason in a few words, for one line on the console: <c>no hardware PMU</c> out of
    /// <c>ENOENT (No such file or directory) opening 'cycles': no hardware PMU: this machine exposes …</c>. The full reason
    /// stays in the result files and in <c>picollo doctor</c>.
    /// </summary>
    /// <param name="reason">A reason as <see cref="Group"/> gives it.</param>
    /// <returns>The cause: after the <c>ERRNO (meaning) opening '…':</c> prefix, up to the first colon, semicolon or
    /// parenthesis, at most <see cref="HeadlineLength"/> characters.</returns>
    public static string Headline(string reason)
    {
        string cause = reason;
        int opening = cause.IndexOf(" opening '", StringComparison.Ordinal);
        if (opening >= 0 && cause.IndexOf("': ", opening, StringComparison.Ordinal) is var end and >= 0)
            cause = cause[(end + "': ".Length)..];
        int stop = cause.IndexOfAny([':', ';', '(']);
        if (stop > 0)
            cause = cause[..stop];
        cause = cause.Trim().TrimEnd('.', ',');
        return cause.Length <= HeadlineLength ? cause : cause[..cause.LastIndexOf(' ', HeadlineLength)] + " …";
    }

    /// <summary>The longest <see cref="Headline"/>, so the line it goes in stays one line.</summary>
    public const int HeadlineLength = 80;

    private static string Quoted(string name) => "'" + name + "'";
}
