using Picollo.Cli.History.Reports;
using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history acknowledge --test NAME --counter NAME --commit SHA --note TEXT [--machine KEY]</c>: marks the change
/// at a commit intended, so it stops alerting and the runs from that commit on are the new normal (docs/HISTORY.md,
/// "Acknowledging a change"). Every machine's series of that test and counter is marked unless <c>--machine</c> names one.
/// </summary>
internal static class HistoryAcknowledgeCommand
{
    /// <summary>What the command was asked.</summary>
    /// <param name="Store">The store, or <see langword="null"/> for <c>PICOLLO_HISTORY</c> or the default file.</param>
    /// <param name="Test">The test's name, or a pattern (every test it matches is marked).</param>
    /// <param name="Counter">The counter's name, as the report shows it.</param>
    /// <param name="Commit">The commit the change is pinned to (the report's Commit column), 7 characters or more.</param>
    /// <param name="Note">Why it is intended.</param>
    /// <param name="Machine">One machine's series only (its key or the key's start), or <see langword="null"/> for all.</param>
    public sealed record Request(string? Store, string Test, string Counter, string Commit, string Note, string? Machine);

    /// <summary>Marks the change; exit 2 with the reason when nothing matches, and nothing is written then.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        TextWriter error = errors.Profile.Out.Writer;
        bool commit = request.Commit.Length >= 7 && request.Commit.All(Uri.IsHexDigit);
        string? problem = !commit ? HistoryReportMessages.NotACommit(request.Commit)
            : string.IsNullOrWhiteSpace(request.Note) ? HistoryReportMessages.EmptyNote()
            : null;
        if (problem is not null)
        {
            error.WriteLine(problem);
            return ExitCodes.Error;
        }

        try
        {
            using IHistoryStore store = HistoryStores.Open(request.Store, create: false);
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
        var tests = all.Where(k => filter.Matches(k.Test) && OnMachine(k, request.Machine)).ToList();
        var keys = tests.Where(k => string.Equals(k.Counter, request.Counter, StringComparison.OrdinalIgnoreCase)).ToList();
        if (tests.Count == 0)
        {
            error.WriteLine(HistoryReportMessages.NoSuchTest(
                request.Test, store.Name, request.Machine, filter.Nearest(all.Select(static k => k.Test).Distinct())));
            return ExitCodes.Error;
        }

        if (keys.Count == 0)
        {
            error.WriteLine(HistoryReportMessages.NoSuchCounter(
                request.Test, request.Counter, store.Name, [.. tests.Select(static k => k.Counter).Distinct()]));
            return ExitCodes.Error;
        }

        // Only series that ran the commit, after their first run: an acknowledgement elsewhere would mark nothing there.
        var marked = keys.Where(k => store.Series(k, null).Skip(1).Any(p => HistoryAnalyzer.SameCommit(p.Commit, request.Commit))).ToList();
        if (marked.Count == 0)
        {
            error.WriteLine(HistoryReportMessages.CommitNotInSeries(request.Test, request.Counter, store.Name, request.Commit));
            return ExitCodes.Error;
        }

        foreach (HistorySeriesKey key in marked)
        {
            store.Acknowledge(new HistoryAcknowledgement(
                key.MachineKey, key.Test, key.Counter, request.Commit, request.Note.Trim(), DateTime.UtcNow));
        }

        console.Profile.Out.Writer.WriteLine(HistoryReportMessages.Acknowledged(
            request.Commit, [.. marked.Select(static k => $"{k.Test} {k.Counter} on {HistoryText.Machine(k.MachineKey)}")]));
        return ExitCodes.Success;
    }

    private static bool OnMachine(HistorySeriesKey key, string? machine) =>
        machine is null || key.MachineKey.StartsWith(machine, StringComparison.OrdinalIgnoreCase);
}
