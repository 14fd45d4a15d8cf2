using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo baselines [DIR]</c>: the baselines under a folder, the machines each covers, and the received files with why.
/// </summary>
internal static class BaselinesCommand
{
    /// <summary>
    /// Writes the table to <paramref name="console"/>; a file that could not be read is named on <paramref name="errors"/>
    /// with exit code <see cref="ExitCodes.Error"/> (the others are still listed).
    /// </summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, string folder)
    {
        if (BaselineFolder.ScanOrSay(errors, folder) is not { } found)
            return ExitCodes.Error;

        if (found.Pairs.Count == 0 && found.Errors.Count == 0)
        {
            console.WriteLine(CliMessages.NoBaselineFiles(Path.GetFullPath(folder)));
            return ExitCodes.Success;
        }

        // One block per test, one line per machine: ids are long (they are copied into commands and searched for), and a
        // table squeezed the reasons into a one-letter column.
        foreach (BaselinePair pair in found.Pairs)
        {
            console.MarkupLine($"[bold]{Markup.Escape(pair.Test)}[/]");
            if (pair.Baseline is null)
                console.WriteLine("  baseline: none yet");
            foreach (BaselineEntry held in pair.Baseline?.Entries ?? [])
                console.WriteLine(Held(held));
            foreach (PendingEntry entry in pair.Pending)
                console.WriteLine($"  received: {entry.Entry.Machine.Id}, {Why(entry)}");
            if (pair.ReceivedPath is not null && pair.Pending.Count == 0)
                console.WriteLine("  received: nothing pending (every entry equals the baseline's)");
        }

        int pending = found.Pairs.Sum(static p => p.Pending.Count);
        int withBaseline = found.Pairs.Count(static p => p.Baseline is not null);
        console.WriteLine($"{found.Pairs.Count} test(s), {withBaseline} with a baseline, "
            + $"{pending} received entr{(pending == 1 ? "y" : "ies")} pending: picollo accept reviews them.");
        foreach (string error in found.Errors)
            errors.MarkupLine($"[red]Not read:[/] {Markup.Escape(error)}");
        return found.Errors.Count > 0 ? ExitCodes.Error : ExitCodes.Success;
    }

    // "  baseline: <machine> (<CPU>), recorded 2026-01-02 03:04 UTC, across 5 processes (<spread>)": one machine's entry.
    private static string Held(BaselineEntry held)
    {
        BaselineRecord record = held.Record;
        string processes = record.RecordedProcesses > 1 ? $", across {record.RecordedProcesses} processes" : "";
        string spread = record.DescribeSpread() is { Length: > 0 } levels ? $" ({levels})" : "";
        return $"  baseline: {held.Machine.Id} ({held.Machine.CpuModel}), recorded {record.RecordedUtc:yyyy-MM-dd HH:mm} UTC"
            + processes + spread;
    }

    // "regressed: tsc P10 +31 % ..." with the counters that decided.
    private static string Why(PendingEntry pending)
    {
        IEnumerable<CounterVerdict> deciding = pending.Why switch
        {
            "regressed" => pending.Verdicts.Where(static v => v.IsRegression),
            "improved" => pending.Verdicts.Where(static v => v.Status == CounterVerdictStatus.Improved),
            _ => [],
        };
        string counters = string.Join("; ", deciding.Select(static v => v.Text));
        return counters.Length == 0 ? pending.Why : $"{pending.Why}: {counters}";
    }
}
