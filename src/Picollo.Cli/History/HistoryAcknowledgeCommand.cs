using Picollo.Cli.History.Reports;
using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history acknowledge --test NAME --counter NAME --commit SHA --note TEXT [--machine KEY]</c>: marks the change
/// at a commit intended, so it stops alerting and the runs from that commit on are the new normal (issue 52,
/// "Acknowledging"). Every machine's series of that test and counter is marked unless <c>--machine</c> names one.
/// </summary>
internal static class HistoryAcknowledgeCommand
{
    /// <summary>What the command was asked.</summary>
    /// <param name="Store">The store, or <see langword="null"/> for <c>PICOLLO_HISTORY</c> or the default file.</param>
    /// <param name="Test">The test's name, or a pattern (every test it matches is marked).</param>
    /// <param name="Counter">The counter's name, as the report shows it.</param>
    /// <param name="Commit">The commit the change is pinned to (the report's Commit column), 7 characters or more.</param>
    /// <param name="Note">Why it is intended.</param>
    /// <param name="Machine">One machine's series only, or <see langword="null"/> for every machine's.</param>
    public sealed record Request(string? Store, string Test, string Counter, string Commit, string Note, string? Machine);

    /// <summary>Marks the change; exit 2 with the reason when nothing matches, and nothing is written then.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        TextWriter error = errors.Profile.Out.Writer;
        if (request.Commit.Length < 7 || !request.Commit.All(Uri.IsHexDigit))
        {
            error.WriteLine($"picollo history acknowledge: '{request.Commit}' is not a commit: give its hash, 7 characters or more, as the report's Commit column shows it.");
            return ExitCodes.Error;
        }

        if (string.IsNullOrWhiteSpace(request.Note))
        {
            error.WriteLine("picollo history acknowledge: --note is empty: say why the change is intended; the report shows it beside the change.");
            return ExitCodes.Error;
        }

        try
        {
            using IHistoryStore store = HistoryStores.Open(request.Store);
            return Acknowledge(console, error, store, request);
        }
        catch (HistoryStoreException e)
        {
            error.WriteLine(e.Message);
            return ExitCodes.Error;
        }
    }

    private static int Acknowledge(IAnsiConsole console, TextWriter error, IHistoryStore store, Request request)
    {
        var filter = new TestNameFilter(request.Test);
        IReadOnlyList<HistorySeriesKey> all = store.SeriesKeys(null);
        var tests = all.Where(k => filter.Matches(k.Test) && (request.Machine is null || k.MachineKey.StartsWith(request.Machine, StringComparison.OrdinalIgnoreCase))).ToList();
        var keys = tests.Where(k => string.Equals(k.Counter, request.Counter, StringComparison.OrdinalIgnoreCase)).ToList();
        if (keys.Count == 0)
        {
            error.WriteLine(tests.Count == 0
                ? $"picollo history acknowledge: no test named '{request.Test}' has runs in {store}"
                    + (request.Machine is null ? "" : $" on machine {request.Machine}") + $"; the nearest names: {string.Join(", ", filter.Nearest(all.Select(static k => k.Test).Distinct()))}."
                : $"picollo history acknowledge: '{request.Test}' has no counter named '{request.Counter}' in {store}; it has {string.Join(", ", tests.Select(static k => k.Counter).Distinct())}.");
            return ExitCodes.Error;
        }

        // Only series that ran the commit: an acknowledgement of a commit a series never ran would mark nothing there.
        var marked = keys.Where(k => store.Series(k, null).Skip(1).Any(p => HistoryAnalyzer.SameCommit(p.Commit, request.Commit))).ToList();
        if (marked.Count == 0)
        {
            error.WriteLine($"picollo history acknowledge: no run of {request.Test} {request.Counter} in {store} is at commit {request.Commit} "
                + "(the first run of a series cannot be a change): copy the commit from the report's Commit column.");
            return ExitCodes.Error;
        }

        foreach (HistorySeriesKey key in marked)
            store.Acknowledge(new HistoryAcknowledgement(key.MachineKey, key.Test, key.Counter, request.Commit, request.Note.Trim(), DateTime.UtcNow));
        console.Profile.Out.Writer.WriteLine(
            $"picollo history: the change at {HistoryText.Commit(request.Commit)} is marked intended for {marked.Count} series "
            + $"({string.Join(", ", marked.Select(static k => $"{k.Test} {k.Counter} on {HistoryText.Machine(k.MachineKey)}"))}): it no longer alerts, "
            + "and the runs from it on are the new normal.");
        return ExitCodes.Success;
    }
}
