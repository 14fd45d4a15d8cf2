using System.Globalization;
using Picollo.Baselines;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo accept [DIR] [--test FILTER] [--all]</c>: each pending received entry shown counter by counter (baseline
/// against received, P50 and P99 per operation, and the verdict), then accepted or skipped; accepting is the library's
/// update (locked, atomic, this machine's entry merged, the others kept, the received entry removed).
/// </summary>
internal static class AcceptCommand
{
    /// <summary>
    /// Reviews or accepts; answers are read from <paramref name="input"/> one line each (y, n or q). Errors go to
    /// <paramref name="errors"/>, with exit code <see cref="ExitCodes.Error"/>.
    /// </summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, TextReader input, string folder, string? filter, bool all)
    {
        if (BaselineFolder.ScanOrSay(errors, folder) is not { } found)
            return ExitCodes.Error;

        foreach (string error in found.Errors)
            errors.MarkupLine($"[red]Not read, left unchanged:[/] {Markup.Escape(error)}");

        List<BaselinePair> pairs = [.. found.Pairs.Where(p => p.Pending.Count > 0 && (filter is null || p.Test.Contains(filter, StringComparison.OrdinalIgnoreCase)))];
        if (pairs.Count == 0)
        {
            console.WriteLine($"Nothing to accept under {Path.GetFullPath(folder)}{(filter is null ? "" : $" for tests matching '{filter}'")}: no received entry is pending.");
            return found.Errors.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
        }

        var store = new BaselineStore();
        int accepted = 0, skipped = 0, failed = 0;
        foreach (BaselinePair pair in pairs)
        {
            foreach (PendingEntry pending in pair.Pending)
            {
                console.MarkupLine($"[bold]{Markup.Escape(pair.Test)}[/] on {Markup.Escape(pending.Entry.Machine.Id)} ({Markup.Escape(pending.Entry.Machine.CpuModel)}): {pending.Why}");
                console.Write(Comparison(pair, pending));
                if (pair.Baseline?.Find(pending.Entry.Machine.Id) is { Record.RecordedProcesses: > 1 } leveled && pending.Entry.Record.RecordedProcesses < leveled.Record.RecordedProcesses)
                    console.WriteLine($"This machine's entry was recorded across {leveled.Record.RecordedProcesses} processes ({(leveled.Record.DescribeSpread() is { Length: > 0 } spread ? spread : "one level")}), the received one across {pending.Entry.Record.RecordedProcesses}: accepting replaces the recorded levels; record it again with PICOLLO_UPDATE_BASELINES=1 to measure them in fresh processes.");
                string answer = all ? "y" : Ask(console, input);
                if (answer == "q")
                {
                    skipped += pair.Pending.Count;
                    console.WriteLine($"Stopped. Accepted {accepted}, skipped the rest.");
                    return found.Errors.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
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
                    errors.MarkupLine($"[red]Not accepted:[/] {Markup.Escape(pair.Test)} on {Markup.Escape(pending.Entry.Machine.Id)}: {Markup.Escape(e.Message)}");
                }
            }
        }

        console.WriteLine($"Accepted {accepted}, skipped {skipped}{(failed > 0 ? $", failed {failed}" : "")}.");
        return failed > 0 || found.Errors.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
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

    private static string Number(double? value) => value is { } v ? v.ToString("#,##0.###", CultureInfo.InvariantCulture) : "-";
}
