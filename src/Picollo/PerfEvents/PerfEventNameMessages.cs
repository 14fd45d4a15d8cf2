using System.Globalization;

namespace Picollo.PerfEvents;

/// <summary>
/// The messages of perf event names in one place: a name the catalog does not know, a name that maps to several events,
/// and a malformed <c>pmu/term=value,…/</c> name (the term, its position and where to look).
/// </summary>
internal static class PerfEventNameMessages
{
    /// <summary>
    /// Given when <paramref name="text"/> names no generic, raw or sysfs event of this machine; <paramref name="closest"/>
    /// are the nearest valid names.
    /// </summary>
    internal static string UnknownEvent(string text, IEnumerable<string> closest, string sysfsRoot)
    {
        // perf's ':u'/':k' modifiers have no place in a spec: the session's WithKernel decides what is counted.
        string modifiers = text.Contains(':', StringComparison.Ordinal)
            ? "Event modifiers such as ':u' or ':k' are not part of the name (the session's WithKernel decides). "
            : "";
        return $"Unknown perf event '{text}'. {modifiers}Closest valid names: {PerfEventSuggestions.ListOrNone(closest)}. "
            + $"Run 'perf list' for the events of this machine, or look in {sysfsRoot}/<pmu>/events/ "
            + "(use them as 'pmu/event/', or write 'pmu/event=0x..,umask=0x../' or a raw code 'rUUEE').";
    }

    /// <summary>
    /// Given when the PMUs publishing <paramref name="name"/> disagree on its scale or unit (<paramref name="parts"/>:
    /// each event with its scale and unit), so their counts cannot be summed.
    /// </summary>
    internal static string ScalesDiffer(string name, string parts) =>
        $"The perf event '{name}' maps to events with different scales or units ({parts}): their counts cannot be summed; " +
        "name one of them.";

    /// <summary>Given when <paramref name="name"/> must map to one event but maps to several (one per core PMU of a hybrid CPU).</summary>
    internal static string MapsToSeveralEvents(string name, int count, string names) =>
        $"The perf event '{name}' maps to {count.ToString(CultureInfo.InvariantCulture)} events ({names}): name one of them, " +
        "or use Resolve and sum their counts (PerfEventCounterSessionBuilder.WithCounter(name) does).";

    /// <summary>
    /// Given when the <c>pmu/terms/</c> name <paramref name="text"/> is malformed at <paramref name="position"/>:
    /// <paramref name="problem"/> says how, and how to write it.
    /// </summary>
    internal static string Malformed(string text, int position, string problem) =>
        string.Create(CultureInfo.InvariantCulture, $"Malformed perf event '{text}' at position {position}: {problem}.");

    /// <summary>The problem of a name with text (<paramref name="rest"/>, e.g. a perf modifier) after its closing '/'.</summary>
    internal static string TextAfterClosingSlash(string rest) =>
        $"'{rest}' after the closing '/' is not supported (event modifiers such as ':u' or 'u' are not; " +
        "user-only counting is the session's WithKernel(false))";

    /// <summary>
    /// The problem of a sysfs event <paramref name="alias"/> whose parameter <paramref name="field"/> (<c>field=?</c>)
    /// the name did not supply.
    /// </summary>
    internal static string ParameterMissing(string field, string alias, string pmuName, string eventsFolder) =>
        $"'{field}' is a parameter the sysfs event '{alias}' requires: add the term '{field}=<value>', " +
        $"e.g. '{pmuName}/{alias},{field}=0/' ({eventsFolder}{alias})";

    /// <summary>
    /// Given when the PMU <paramref name="pmuName"/> of the name <paramref name="text"/> is not one of this machine's
    /// (<paramref name="pmuNames"/>, from <paramref name="sysfsRoot"/>).
    /// </summary>
    internal static string UnknownPmu(string pmuName, string text, IEnumerable<string> pmuNames, string sysfsRoot) =>
        $"Unknown PMU '{pmuName}' in perf event '{text}'. PMUs of this machine: {PerfEventSuggestions.ListOrNone(pmuNames)} " +
        $"(from {sysfsRoot}).";

    /// <summary>
    /// Given when a term <paramref name="key"/> of <paramref name="text"/> is neither a format field nor an event of the PMU
    /// <paramref name="pmuName"/>; <paramref name="where"/> names the sysfs event it came from, or is empty.
    /// </summary>
    internal static string UnknownTerm(
        string key,
        int position,
        string text,
        string where,
        string pmuName,
        IReadOnlyList<string> closest,
        string formats,
        string eventsFolder) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"Unknown term '{key}' at position {position} in perf event '{text}'{where}: {pmuName} has no such format field or event. ")
        + (closest.Count > 0 ? $"Closest: {string.Join(", ", closest)}. " : "")
        + $"Format fields of {pmuName}: {formats}; its events are in {eventsFolder} (or run 'perf list pmu').";
}
