using System.Runtime.InteropServices;
using Picollo.Baselines.Records;
using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history add &lt;results folder&gt;</c>: one run's result files appended to the results history as
/// one run, keyed by this machine's key and the commit measured. Bad input (no folder, nothing in it, nothing readable, a
/// store that cannot be used) is exit code 2 with nothing written; unreadable files beside readable ones are named and skipped.
/// </summary>
internal static class HistoryAddCommand
{
    /// <summary>What to add and where.</summary>
    /// <param name="Folder">The run's results folder.</param>
    /// <param name="Commit">The commit measured; default: HEAD of the repository around the current folder.</param>
    /// <param name="Parent">Its parent; default: HEAD's first parent when the commit is HEAD.</param>
    /// <param name="Branch">The branch; default: the branch checked out.</param>
    /// <param name="Machine">The machine key; default: this machine's, as <c>picollo doctor</c> shows it.</param>
    /// <param name="Store">The store; default: PICOLLO_HISTORY, else ./picollo-history.db.</param>
    /// <param name="KeepHistograms">After adding, drop histograms older than this many days; <see langword="null"/>: keep all.</param>
    /// <param name="Repeat">How many runs to add from the folder: 1, except in the concurrency tests (a hidden option).</param>
    internal sealed record Request(
        string Folder,
        string? Commit,
        string? Parent,
        string? Branch,
        string? Machine,
        string? Store,
        double? KeepHistograms,
        int Repeat = 1);

    /// <summary>Adds the run; returns the exit code.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(errors);
        ArgumentNullException.ThrowIfNull(request);
        TextWriter output = console.Profile.Out.Writer, error = errors.Profile.Out.Writer;
        if (request.KeepHistograms is { } days && !HistoryPruneCommand.IsDays(days))
        {
            error.WriteLine(HistoryMessages.KeepHistogramsNotPositive("add", days));
            return ExitCodes.Error;
        }

        if (Results(request.Folder, error) is not { } results)
            return ExitCodes.Error;

        HistoryRun run = Run(request, out string? notARepository);
        try
        {
            using IHistoryStore store = HistoryStores.Open(request.Store);
            int tests = results.Select(static r => r.Test).Distinct(StringComparer.Ordinal).Count();
            for (int i = 0; i < request.Repeat; i++)
            {
                long id = store.Add(run with { TimeUtc = DateTime.UtcNow }, results);
                output.WriteLine(HistoryMessages.Added(id, tests, results.Count, store.Name, run.MachineKey, Short(run.Commit)));
            }

            if (notARepository is not null)
                error.WriteLine(HistoryMessages.NoCommit(Directory.GetCurrentDirectory(), notARepository));
            if (request.KeepHistograms is { } keep)
                output.WriteLine(HistoryMessages.Pruned(store.Prune(TimeSpan.FromDays(keep)), keep, store.Name));
            return ExitCodes.Success;
        }
        catch (HistoryStoreException e)
        {
            error.WriteLine("picollo history add: " + e.Message);
            return ExitCodes.Error;
        }
    }

    // The folder's results, or null (the reason written) when there is nothing to add.
    private static List<HistoryResult>? Results(string path, TextWriter error)
    {
        ResultFolder folder;
        try
        {
            folder = ResultFolder.Read(path);
        }
        catch (DirectoryNotFoundException)
        {
            error.WriteLine(HistoryMessages.NoFolder(Path.GetFullPath(path)));
            return null;
        }

        foreach (UnreadableResult file in folder.Unreadable)
            error.WriteLine(HistoryMessages.ResultFileSkipped(file));
        if (folder.Reports.Count == 0)
        {
            error.WriteLine(folder.Unreadable.Count == 0
                ? HistoryMessages.NothingToAdd(folder.Folder)
                : HistoryMessages.NoneReadable(folder.Folder, folder.Unreadable.Count));
            return null;
        }

        List<HistoryResult> results = [.. folder.Reports.SelectMany(r => HistoryResult.From(r.Value, folder.Tests[r.Key]))];
        if (results.Count == 0)
        {
            error.WriteLine(HistoryMessages.NoCounters(folder.Folder));
            return null;
        }

        return results;
    }

    // The run's keys: what the options say, else git's HEAD (its parent only when the commit is HEAD), else nothing, with
    // git's reason in notARepository.
    private static HistoryRun Run(Request request, out string? notARepository)
    {
        HistoryGit git = request.Commit is not null && request.Parent is not null && request.Branch is not null
            ? new HistoryGit(null, null, null, null)
            : HistoryGit.Read(Directory.GetCurrentDirectory());
        notARepository = request.Commit is null ? git.NotARepository : null;
        string? commit = request.Commit ?? git.Commit;
        string? parent = request.Parent ?? (commit is not null && commit == git.Commit ? git.Parent : null);
        return new HistoryRun(
            request.Machine ?? MachineFingerprint.Current.Id, RuntimeInformation.FrameworkDescription, commit, parent,
            request.Branch ?? git.Branch, DateTime.UtcNow);
    }

    // A full commit id as git log --oneline shortens it; anything else as given.
    private static string? Short(string? commit) =>
        commit is { Length: 40 } && commit.All(char.IsAsciiHexDigit) ? commit[..12] : commit;
}
