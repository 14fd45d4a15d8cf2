using Picollo.Counters;
using Picollo.Measurement;

namespace Picollo.Reporting;

/// <summary>
/// Lines that name the counters a machine could not count, one per reason: on a VM without a PMU every hardware counter
/// fails for the same reason, and four copies of the remedy paragraph hide the one line a reader needs.
/// </summary>
internal static class UnavailableCounterGroups
{
    /// <summary>
    /// One line per distinct reason: <c>cycles, instructions: ENOENT … opening 'cycles', 'instructions': no hardware
    /// PMU …</c>.
    /// </summary>
    /// <param name="counters">Any counters; the available ones are skipped.</param>
    /// <returns>The lines, in the order their first counter appears.</returns>
    public static IEnumerable<string> Describe(IEnumerable<CounterResult> counters) =>
        Group(counters.Where(static c => !c.IsAvailable).Select(static c => (c.Name, c.UnavailableReason)))
            .Select(static g => string.Join(", ", g.Names) + ": " + g.Reason);

    /// <summary>The counters grouped by reason (<see cref="UnavailableReasons.Group"/>).</summary>
    /// <param name="unavailable">Each counter that does not count and its reason.</param>
    /// <returns>One group per distinct reason, in the order its first counter appears.</returns>
    public static IEnumerable<(IReadOnlyList<string> Names, string Reason)> Group(IEnumerable<(string Name, string? Reason)> unavailable) =>
        UnavailableReasons.Group(unavailable);
}
