using Picollo.Measurement;

namespace Picollo.Reporting;

/// <summary>
/// Lines that name the counters a machine could not count, one per reason: on a VM without a PMU every hardware counter
/// fails for the same reason, and four copies of the remedy paragraph hide the one line a reader needs.
/// </summary>
internal static class UnavailableCounterGroups
{
    /// <summary>One line per distinct reason: <c>cycles, instructions: ENOENT … opening 'cycles', 'instructions': no hardware PMU …</c>.</summary>
    /// <param name="counters">Any counters; the available ones are skipped.</param>
    /// <returns>The lines, in the order of each reason's first counter.</returns>
    public static IEnumerable<string> Describe(IEnumerable<CounterResult> counters)
    {
        // Reasons quote the counter they are about ("opening 'cycles'"), so they are compared with the name taken out.
        const char Placeholder = '\u0000';
        return counters
            .Where(static c => !c.IsAvailable)
            .GroupBy(static c => (c.UnavailableReason ?? "No reason given.").Replace(c.Name, Placeholder.ToString(), StringComparison.Ordinal), StringComparer.Ordinal)
            .Select(static group =>
            {
                string[] names = [.. group.Select(static c => c.Name)];
                return string.Join(", ", names) + ": " + group.Key.Replace(Placeholder.ToString(), string.Join("', '", names), StringComparison.Ordinal);
            });
    }
}
