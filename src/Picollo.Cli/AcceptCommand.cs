using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo accept [DIR] [--test NAME] [--all] [--dry-run]</c>: the pending received entries listed first (what each
/// replaces, and whether that drops levels recorded across processes), then each shown counter by counter (baseline
/// against received, P50 and P99 per operation, and the verdict) and accepted or skipped; accepting is the library's
/// update (locked, atomic, this machine's entry merged, the others kept, the received entry removed).
/// </summary>
internal static class AcceptCommand
{
    /// <summary>What the command line asked for.</summary>
    /// <param name="Folder">The folder to search.</param>
    /// <param name="Test">A test name or pattern (<see cref="TestNameFilter"/>), or <see langword="null"/> for every test.</param>
    /// <param name="All">Accept every pending entry without asking.</param>
    /// <param name="DryRun">List what would be accepted and change nothing.</param>
    internal sealed record Request(string Folder, string? Test, bool All, bool DryRun);

    /// <summary>
    /// Lists, then reviews or accepts; answers are read from <paramref name="input"/> one line each (y, n or q). Errors go
    /// to <paramref name="errors"/>: exit code <see cref="ExitCodes.Error"/> for a missing folder, a file not read, a name
    /// that matches no test, or an entry that could not be written.
    /// </summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, TextReader input, Request request)
    {
        ArgumentNullException.ThrowIfNull(request);
        string folder = request.Folder;
        if (BaselineFolder.ScanOrSay(errors, folder) is not { } found)
            return ExitCodes.Error;

        foreach (string error in found.Errors)
            errors.MarkupLine($"[red]Not read, left unchanged:[/] {Markup.Escape(error)}");

        TestNameFilter? filter = string.IsNullOrWhiteSpace(request.Test) ? null : new TestNameFilter(request.Test);
        List<BaselinePair> named = [.. found.Pairs.Where(p => filter is null || filter.Matches(p.Test))];
        if (filter is not null && named.Count == 0)
        {
            IReadOnlyList<string> nearest = filter.Nearest(found.Pairs.Select(static p => p.Test));
            errors.Profile.Out.Writer.WriteLine(CliMessages.NoTestNamed(filter.Text, Path.GetFullPath(folder), nearest));
            return ExitCodes.Error;
        }

        List<BaselinePair> pairs = [.. named.Where(static p => p.Pending.Count > 0)];
        int notRead = found.Errors.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
        if (pairs.Count == 0)
        {
            string forTests = filter is null ? "" : $" for tests named '{filter.Text}'";
            console.WriteLine($"Nothing to accept under {Path.GetFullPath(folder)}{forTests}: no received entry is pending.");
            return notRead;
        }

        Preview(console, pairs, request);
        if (request.DryRun)
        {
            console.Profile.Out.Writer.WriteLine(CliMessages.DryRunChangedNothing());
            return notRead;
        }

        return Review(console, errors, input, pairs, request, notRead);
    }

    // Each pending entry shown beside what it replaces, then accepted, skipped or the review stopped, as answered (or all
    // accepted with --all); an entry that cannot be written is an error, and the others go on.
    private static int Review(
        IAnsiConsole console, IAnsiConsole errors, TextReader input, List<BaselinePair> pairs, Request request, int notRead)
    {
        var store = new BaselineStore();
        int accepted = 0, skipped = 0, failed = 0;
        foreach (BaselinePair pair in pairs)
        {
            foreach (PendingEntry pending in pair.Pending)
            {
                console.WriteLine();
                MachineFingerprint machine = pending.Entry.Machine;
                string where = $"{Markup.Escape(machine.Id)} ({Markup.Escape(machine.CpuModel)})";
                console.MarkupLine($"[bold]{Markup.Escape(pair.Test)}[/] on {where}: {pending.Why}");
                console.Write(Comparison(pair, pending));
                if (!request.All && DroppedLevels(pair, pending) is { } dropped)
                    console.WriteLine(CliMessages.AcceptingDropsLevels(dropped));
                string answer = request.All ? "y" : Ask(console, input);
                if (answer == "q")
                {
                    console.WriteLine($"Stopped. Accepted {accepted}, skipped the rest.");
                    return notRead;
                }

                if (answer != "y")
                {
                    skipped++;
                    console.WriteLine("Skipped.");
                    continue;
                }

                try
                {
                    store.Update(pair.BaselinePath, pending.Entry);
                    accepted++;
                    console.WriteLine($"Accepted into {pair.BaselinePath}.");
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or BaselineFormatException)
                {
                    failed++;
                    errors.MarkupLine(
                        $"[red]Not accepted:[/] {Markup.Escape(pair.Test)} on {Markup.Escape(machine.Id)}: {Markup.Escape(e.Message)}");
                }
            }
        }

        console.WriteLine($"Accepted {accepted}, skipped {skipped}{(failed > 0 ? $", failed {failed}" : "")}.");
        return failed > 0 ? ExitCodes.Error : notRead;
    }

    // What will be accepted, before anything is asked or written, with what each entry replaces (issue 27).
    private static void Preview(IAnsiConsole console, List<BaselinePair> pairs, Request request)
    {
        // Lines as they are, never wrapped at the console's width: a script or a reviewer reads them whole.
        TextWriter output = console.Profile.Out.Writer;
        int count = pairs.Sum(static p => p.Pending.Count);
        string verb = request.DryRun ? "would be accepted" : request.All ? "will be accepted" : "to review";
        string forTests = request.Test is null ? "" : $" (tests named '{request.Test}')";
        output.WriteLine($"{count} received entr{(count == 1 ? "y" : "ies")} {verb}{forTests}:");
        bool anyDropped = false;
        foreach (BaselinePair pair in pairs)
        {
            foreach (PendingEntry pending in pair.Pending)
            {
                output.WriteLine($"  {pair.Test} on {pending.Entry.Machine.Id} ({pending.Entry.Machine.CpuModel}): {pending.Why}");
                if (DroppedLevels(pair, pending) is { } dropped)
                {
                    anyDropped = true;
                    output.WriteLine($"    accepting it {dropped}");
                }
            }
        }

        if (anyDropped)
            output.WriteLine(CliMessages.KeepLevelsByRecordingAgain());
    }

    // The received entry is recorded in one process; this machine's entry in the baseline may hold levels measured across
    // fresh processes (RecordingQuality.Processes, Spread), which an accepted entry replaces rather than extends
    // (BaselineStore.Update merges the entry whole). A phrase saying so, or null when nothing recorded is dropped.
    private static string? DroppedLevels(BaselinePair pair, PendingEntry pending)
    {
        if (pair.Baseline?.Find(pending.Entry.Machine.Id) is not { } held)
            return null;
        int before = held.Record.RecordedProcesses, after = pending.Entry.Record.RecordedProcesses;
        string spread = held.Record.DescribeSpread();
        if (before <= after && (spread.Length == 0 || pending.Entry.Record.DescribeSpread().Length > 0))
            return null;
        return CliMessages.LevelsDropped(before, spread, after);
    }

    // y, n or q; anything else asks again; the end of the input is q (nothing is accepted by a closed pipe).
    private static string Ask(IAnsiConsole console, TextReader input)
    {
        while (true)
        {
            console.Write(new Spectre.Console.Text("Accept? [y]es, [n]o, [q]uit: "));
            string? line = input.ReadLine();
            if (line is null)
            {
                console.WriteLine();
                return "q";
            }

            string answer = line.Trim().ToLowerInvariant();
            if (answer is "y" or "yes" or "n" or "no" or "q" or "quit")
                return answer[..1];
        }
    }

    private static Table Comparison(BaselinePair pair, PendingEntry pending)
    {
        BaselineRecord? held = pair.Baseline?.Find(pending.Entry.Machine.Id)?.Record;
        var table = new Table().AddColumns("Counter", "Baseline P50", "Baseline P99", "Received P50", "Received P99", "Verdict");
        foreach (BaselineCounter counter in pending.Entry.Record.Counters)
        {
            BaselineCounter? before = held?.Find(counter.Name);
            CounterVerdict? verdict = pending.Verdicts.FirstOrDefault(v => v.Counter == counter.Name);
            table.AddRow(
                Markup.Escape($"{counter.Name} ({counter.Unit}/op)"),
                Number(before?.PerOperation.P50),
                Number(before?.PerOperation.P99),
                Number(counter.PerOperation.P50),
                Number(counter.PerOperation.P99),
                Markup.Escape(verdict?.Text ?? ""));
        }

        return table;
    }

    // As the verdict lines print it: a collection every 4,000 operations is 2.5E-4, not 0.
    private static string Number(double? value) => value is { } v ? CounterVerdict.Number(v) : "-";
}
