using System.Globalization;

namespace Picollo.Testing;

/// <summary>
/// How busy the machine was around a perf test: the 1-minute load average (Linux <c>/proc/loadavg</c>) and the CPU time
/// stolen by the hypervisor (<c>/proc/stat</c>'s <c>steal</c> column), read before and after. A measurement taken while the
/// machine was busy is reported as such, so a reader can tell a noisy verdict from a real one.
/// </summary>
/// <param name="LoadAverage">The 1-minute load average, or <see langword="null"/> where the OS does not expose it.</param>
/// <param name="StealTicks">Cumulative steal time in clock ticks, or <see langword="null"/>.</param>
/// <param name="TotalTicks">Cumulative CPU time of every state in clock ticks, or <see langword="null"/>.</param>
internal readonly record struct MachineLoad(double? LoadAverage, long? StealTicks, long? TotalTicks)
{
    // More runnable threads than cores on average over the last minute (this test's own measuring thread counts as one),
    // or this share of CPU time stolen: the machine was busy.
    private const double BusyLoadPerCore = 1.0;

    private const double BusySteal = 0.02;

    /// <summary>Reads the load now.</summary>
    public static MachineLoad Read()
    {
        double? load = null;
        long? steal = null, total = null;
        try
        {
            if (File.Exists("/proc/loadavg")
                && double.TryParse(File.ReadAllText("/proc/loadavg").Split(' ')[0], NumberStyles.Float, CultureInfo.InvariantCulture, out double l))
            {
                load = l;
            }

            if (File.Exists("/proc/stat") && File.ReadLines("/proc/stat").FirstOrDefault() is { } cpu && cpu.StartsWith("cpu ", StringComparison.Ordinal))
            {
                // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user already).
                long[] fields = [.. cpu.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8).Select(static f => long.Parse(f, CultureInfo.InvariantCulture))];
                total = fields.Sum();
                steal = fields.Length >= 8 ? fields[7] : null;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            // A container without /proc or with a masked one: the report says the load is unknown.
        }

        return new MachineLoad(load, steal, total);
    }

    /// <summary>The line the report shows, and whether the machine was busy.</summary>
    /// <param name="before">Read before the test measured.</param>
    /// <param name="after">Read after.</param>
    /// <returns>The line (<see langword="null"/> when nothing could be read) and the busy flag.</returns>
    public static (string? Line, bool Busy) Describe(MachineLoad before, MachineLoad after)
    {
        int cores = Environment.ProcessorCount;
        var parts = new List<string>();
        bool busy = false;
        if (before.LoadAverage is { } l0 && after.LoadAverage is { } l1)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"load average {l0:0.00} before, {l1:0.00} after ({cores} logical cores)"));
            busy |= l0 > BusyLoadPerCore * cores;
        }

        if (before is { StealTicks: { } s0, TotalTicks: { } t0 } && after is { StealTicks: { } s1, TotalTicks: { } t1 } && t1 > t0)
        {
            double share = (double)(s1 - s0) / (t1 - t0);
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"{share:0.0%} of CPU time stolen by the hypervisor during the test"));
            busy |= share > BusySteal;
        }

        if (parts.Count == 0)
            return (null, false);

        string line = "Machine: " + string.Join("; ", parts) + ".";
        return busy
            ? (line + " The machine was busy: time counters may be noisier than usual, and the verdicts account for it only in part.", true)
            : (line, false);
    }
}
