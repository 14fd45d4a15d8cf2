using Picollo.Counters;
using Picollo.PerfEvents;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary><c>picollo list</c>: the counter names this machine resolves, one per line, as <c>perf list</c> prints them.</summary>
internal static class ListCommand
{
    /// <summary>
    /// Writes the names (those of one PMU with <paramref name="pmu"/>); an unknown PMU is an error naming the known ones.
    /// </summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, string? pmu)
    {
        PerfEventCatalog catalog = PerfEventCatalog.Default;
        TextWriter output = console.Profile.Out.Writer;
        if (pmu is not null)
        {
            if (!PerfPmu.TryFind(pmu, out PerfPmu? found))
            {
                string known = string.Join(", ", PerfPmu.All.Select(static p => p.Name));
                errors.MarkupLine($"[red]No PMU named '{Markup.Escape(pmu)}'[/] on this machine. "
                    + $"Its PMUs: {Markup.Escape(known)} (from /sys/bus/event_source/devices).");
                return ExitCodes.Error;
            }

            foreach (string name in found.EventNames.Order(StringComparer.Ordinal))
                output.WriteLine($"{found.Name}/{name}/");
            return ExitCodes.Success;
        }

        output.WriteLine(CounterNames.Tsc);
        output.WriteLine(CounterNames.Clock);
        foreach (CounterDescriptor runtime in new RuntimeCounterSource().Descriptors)
            output.WriteLine(runtime.Name);

        // Counted under Valgrind in a worker process where it is installed (picollo doctor says whether it runs .NET here).
        foreach (string simulated in KnownCounters.SimulatedSet)
            output.WriteLine(simulated);
        foreach (string name in catalog.GetKnownNames())
            output.WriteLine(name);
        return ExitCodes.Success;
    }
}
