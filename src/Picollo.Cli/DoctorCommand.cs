using System.Globalization;
using System.Text.Json;
using Picollo.Reporting;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary><c>picollo doctor</c>: this machine as Picollo sees it.</summary>
internal static class DoctorCommand
{
    private static readonly JsonSerializerOptions s_json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
    };

    /// <summary>
    /// Writes the report; exit code 0 when hardware counters are usable, <see cref="ExitCodes.NoHardwareCounters"/> when not.
    /// </summary>
    public static int Run(IAnsiConsole console, bool json)
    {
        DoctorReport report = DoctorReport.Gather();
        if (json)
            console.Profile.Out.Writer.WriteLine(JsonSerializer.Serialize(report, s_json));
        else
            Write(console, report);
        return report.HardwareCountersUsable ? ExitCodes.Success : ExitCodes.NoHardwareCounters;
    }

    private static void Write(IAnsiConsole console, DoctorReport report)
    {
        console.MarkupLine($"[bold]Baseline key[/] {Markup.Escape(report.BaselineKey)}");
        var machine = new Table().AddColumns("Fingerprint", "Value");
        foreach ((string name, string value) in report.Fingerprint)
            machine.AddRow(Markup.Escape(name), Markup.Escape(value));
        console.Write(machine);

        var perf = new Table().AddColumns("perf_event", "Value");
        perf.AddRow("level", Markup.Escape(report.PerfEvents));
        perf.AddRow("perf_event_paranoid", report.PerfEventParanoid?.ToString(CultureInfo.InvariantCulture) ?? "unknown");
        perf.AddRow("CAP_PERFMON / root", report.Privileged ? "yes" : "no");
        perf.AddRow("PMUs", Markup.Escape(report.Pmus.Count == 0 ? "none" : string.Join(", ", report.Pmus)));
        string counts = report.FixedCounters is { } f
            ? $"{f} fixed, {report.ProgrammableCounters} programmable counters"
            : "counters unknown";
        perf.AddRow("CPU PMU", report.HasCpuPmu ? $"yes ({counts})" : "no");
        perf.AddRow("container", Markup.Escape(report.Container ?? "none seen"));
        perf.AddRow("seccomp", Markup.Escape(report.Seccomp ?? "unknown"));
        if (report.SoftwareUnavailableReason is { } software)
            perf.AddRow("software events", Markup.Escape(software));
        if (report.HardwareUnavailableReason is { } hardware)
            perf.AddRow("hardware events", Markup.Escape(hardware));
        console.Write(perf);

        var tsc = new Table().AddColumns("TSC", "Value");
        tsc.AddRow("readable", report.TscSupported ? "yes" : Markup.Escape("no: " + report.TscUnsupportedReason));
        if (report.TscSupported)
        {
            tsc.AddRow("invariant", report.TscInvariant ? "yes" : "no (its rate may change with the core clock)");
            tsc.AddRow("frequency", report.TscHertz is { } hz
                ? Markup.Escape(Frequency(hz, report))
                : "unknown");
        }

        console.Write(tsc);

        // One reason is usually shared by many counters (every hardware event on a machine without a PMU): the report's own
        // grouping prints each reason once, naming its counters, under the table.
        var counters = new Table().AddColumns("Counter", "Kind", "Default set", "Counts here");
        foreach (CounterStatus counter in report.Counters)
        {
            counters.AddRow(
                Markup.Escape(counter.Name), counter.Kind, counter.InDefaultSet ? "yes" : "",
                counter.Counts ? "[green]yes[/]" : "[red]no[/]");
        }

        console.Write(counters);

        WriteSimulation(console, report.Simulation);
        IEnumerable<(string Name, string? Reason)> notCounting =
            report.Counters.Where(static c => !c.Counts).Select(static c => (c.Name, c.Reason));
        foreach ((IReadOnlyList<string> names, string reason) in UnavailableCounterGroups.Group(notCounting))
            console.MarkupLine($"[red]Not counting here:[/] {Markup.Escape(string.Join(", ", names))}: {Markup.Escape(reason)}");
        console.MarkupLine(Markup.Escape(CliMessages.HardwareCounters(report.HardwareCountersUsable, report.Simulation.Counts)));
    }

    // Whether Valgrind is there and ran a .NET program under callgrind, as a simulation worker would.
    private static void WriteSimulation(IAnsiConsole console, SimulationStatus simulation)
    {
        var simulated = new Table().AddColumns("Simulated counters", "Value");
        string found = simulation.Valgrind is { } path ? $"{path} {simulation.Version}" : "not found";
        simulated.AddRow("valgrind", Markup.Escape(found));
        string ran = string.Create(
            CultureInfo.InvariantCulture, $" (a .NET program ran under callgrind in {simulation.ProbeSeconds:0.0} s)");
        simulated.AddRow("counts here", simulation.Counts ? "[green]yes[/]" + Markup.Escape(ran) : "[red]no[/] (the reason is below)");
        console.Write(simulated);
    }

    // "2899.998 MHz (cpuid, ±12.5 ppm)": the TSC's rate, where it was read, and how sure that source is when it says.
    private static string Frequency(double hertz, DoctorReport report)
    {
        string uncertainty = report.TscUncertaintyPpm is { } ppm ? ", ±" + ppm.ToString("0.#", CultureInfo.InvariantCulture) + " ppm" : "";
        return string.Create(CultureInfo.InvariantCulture, $"{hertz / 1e6:0.###} MHz ({report.TscFrequencySource}{uncertainty})");
    }
}
