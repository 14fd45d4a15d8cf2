using System.Globalization;

namespace Picollo.Simulation;

/// <summary>
/// Reads the dumps callgrind writes for <c>CALLGRIND_DUMP_STATS_AT</c> (callgrind's format: a header of
/// <c>key: value</c> lines, among them <c>events:</c>, the event names, and <c>summary:</c>, their totals, then the costs
/// per function, which are not read).
/// </summary>
internal static class CallgrindDump
{
    /// <summary>The dump's trigger line for a dump written by <c>CALLGRIND_DUMP_STATS_AT(name)</c>.</summary>
    private const string TriggerPrefix = "desc: Trigger: Client Request: ";

    /// <summary>Reads a dump's totals.</summary>
    /// <param name="path">The dump file.</param>
    /// <param name="name">
    /// The name the dump was asked under, checked against its trigger line; <see langword="null"/> to skip the check.
    /// </param>
    /// <returns>
    /// The events and their totals, and the tool that wrote them (its <c>creator:</c> line, e.g. <c>callgrind-3.19.0</c>).
    /// </returns>
    /// <exception cref="InvalidDataException">The file is not a callgrind dump, has no totals, or is another dump.</exception>
    /// <exception cref="IOException">The file cannot be read.</exception>
    public static (SimulatedEvents Events, string? Creator) Read(string path, string? name)
    {
        ArgumentNullException.ThrowIfNull(path);
        string[]? events = null;
        ulong[]? summary = null;
        string? trigger = null, creator = null;
        int lineNumber = 0;
        using (var reader = new StreamReader(path))
        {
            // The totals are in the header, before the first cost line; stop there rather than read every function's costs.
            while (reader.ReadLine() is { } line && summary is null)
            {
                lineNumber++;
                if (lineNumber == 1 && !line.StartsWith("# callgrind format", StringComparison.Ordinal)
                    && !line.StartsWith("version:", StringComparison.Ordinal))
                    throw new InvalidDataException(SimulationMessages.NotADump(path, line));
                if (line.StartsWith("creator:", StringComparison.Ordinal))
                    creator = line["creator:".Length..].Trim();
                else if (line.StartsWith(TriggerPrefix, StringComparison.Ordinal))
                    trigger = line[TriggerPrefix.Length..];
                else if (line.StartsWith("events:", StringComparison.Ordinal))
                    events = line["events:".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                else if (line.StartsWith("summary:", StringComparison.Ordinal))
                    summary = Numbers(line["summary:".Length..], path, lineNumber);
            }
        }

        if (events is null || summary is null)
            throw new InvalidDataException(SimulationMessages.DumpWithoutTotals(path, events is null ? "events:" : "summary:"));
        if (name is not null && trigger != name)
            throw new InvalidDataException(SimulationMessages.DumpOfAnotherRegion(path, name, trigger));
        return (SimulatedEvents.Of(events, summary), creator);
    }

    private static ulong[] Numbers(string text, string path, int line)
    {
        string[] parts = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var values = new ulong[parts.Length];
        for (int i = 0; i < parts.Length; i++)
        {
            if (!ulong.TryParse(parts[i], NumberStyles.None, CultureInfo.InvariantCulture, out values[i]))
                throw new InvalidDataException(SimulationMessages.DumpNumberUnreadable(path, line, parts[i]));
        }

        return values;
    }
}
