using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// The baseline and received files under a folder, read with the library's reader (a corrupt file is reported with its
/// path and JSON position, never half-read), and each received file's pending entries judged with the library's rules.
/// </summary>
internal sealed class BaselineFolder
{
    private const string Received = ".received.perf.json";

    // Build output and tool folders hold copies or nothing of interest.
    private static readonly HashSet<string> s_skipped = new(StringComparer.Ordinal) { "bin", "obj", ".git", "node_modules", "TestResults" };

    private BaselineFolder(IReadOnlyList<BaselinePair> pairs, IReadOnlyList<string> errors)
    {
        Pairs = pairs;
        Errors = errors;
    }

    /// <summary>Every test with a baseline or a received file, ordered by path.</summary>
    public IReadOnlyList<BaselinePair> Pairs { get; }

    /// <summary>One line per file that could not be read: its path, the position and the reason.</summary>
    public IReadOnlyList<string> Errors { get; }

    /// <summary>
    /// <see cref="Scan"/>, or <see langword="null"/> after saying on <paramref name="errors"/> (standard error) that the
    /// folder does not exist.
    /// </summary>
    public static BaselineFolder? ScanOrSay(IAnsiConsole errors, string root)
    {
        try
        {
            return Scan(root);
        }
        catch (DirectoryNotFoundException e)
        {
            errors.MarkupLine($"[red]{Markup.Escape(e.Message)}[/]");
            return null;
        }
    }

    /// <summary>Reads every baseline and received file under <paramref name="root"/>.</summary>
    /// <exception cref="DirectoryNotFoundException"><paramref name="root"/> does not exist.</exception>
    public static BaselineFolder Scan(string root)
    {
        root = Path.GetFullPath(root);
        if (!Directory.Exists(root))
            throw new DirectoryNotFoundException(
                $"No folder {root}: give the folder that holds the perf tests (default: the current folder).");

        var baselinePaths = new SortedSet<string>(StringComparer.Ordinal);
        foreach (string file in Files(root))
        {
            if (file.EndsWith(Received, StringComparison.Ordinal))
                baselinePaths.Add(file[..^Received.Length] + BaselineLocator.BaselineExtension);
            else if (file.EndsWith(BaselineLocator.BaselineExtension, StringComparison.Ordinal))
                baselinePaths.Add(file);
        }

        var pairs = new List<BaselinePair>();
        var errors = new List<string>();
        foreach (string baselinePath in baselinePaths)
        {
            string receivedPath = BaselineLocator.GetReceivedPath(baselinePath);
            BaselineFile? baseline, received;
            try
            {
                baseline = BaselineStore.Read(baselinePath);
                received = BaselineStore.Read(receivedPath);
            }
            catch (BaselineFormatException e)
            {
                errors.Add(e.Message);
                continue;
            }

            // The path under the folder, so tests of the same name in two projects stay apart.
            string test = Path.GetRelativePath(root, baselinePath)[..^BaselineLocator.BaselineExtension.Length];
            pairs.Add(received is null
                ? new BaselinePair(test, baselinePath, null, baseline, [])
                : new BaselinePair(test, baselinePath, receivedPath, baseline, PendingEntries(baseline, received)));
        }

        return new BaselineFolder(pairs, errors);
    }

    // The received entries that differ from the baseline's entry of the same machine (the received file also repeats the
    // baseline's own entries, so that renaming it accepts everything).
    private static List<PendingEntry> PendingEntries(BaselineFile? baseline, BaselineFile received)
    {
        var pending = new List<PendingEntry>();
        foreach (BaselineEntry entry in received.Entries)
        {
            BaselineEntry? held = baseline?.Find(entry.Machine.Id);
            if (held is not null && Json(held) == Json(entry))
                continue;
            pending.Add(new PendingEntry(entry, BaselineComparer.Compare(baseline, entry.Machine, entry.Record)));
        }

        return pending;
    }

    private static string Json(BaselineEntry entry) => new BaselineFile([entry]).ToJson();

    private static IEnumerable<string> Files(string folder)
    {
        foreach (string file in Directory.EnumerateFiles(folder, "*.perf.json"))
            yield return file;
        foreach (string sub in Directory.EnumerateDirectories(folder))
        {
            if (s_skipped.Contains(Path.GetFileName(sub)))
                continue;
            foreach (string file in Files(sub))
                yield return file;
        }
    }
}
