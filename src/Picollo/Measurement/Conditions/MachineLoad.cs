using System.Diagnostics;
using System.Globalization;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// How busy the machine was while a perf test ran: the CPU time other processes used (all CPUs' busy time from
/// <c>/proc/stat</c>, less this process's own), the time the hypervisor stole, and the 1-minute load average for the
/// record. A measurement taken beside other work is reported as such, so a reader can tell a noisy verdict from a real one.
/// The load average alone cannot say it: it lags a minute behind, so the build that <c>dotnet test</c> runs first
/// counted as "busy" for every test after it.
/// </summary>
/// <param name="LoadAverage">The 1-minute load average, or <see langword="null"/> where the OS does not expose it.</param>
/// <param name="BusyTicks">Cumulative busy CPU time of every CPU in clock ticks (steal included), or <see langword="null"/>.</param>
/// <param name="StealTicks">Cumulative steal time in clock ticks, or <see langword="null"/>.</param>
/// <param name="TotalTicks">Cumulative CPU time of every state in clock ticks, or <see langword="null"/>.</param>
/// <param name="OwnCpu">
/// This process's CPU time, with that of its children that ended (the fresh processes a recording starts) and of the live
/// ones that work for it (<see cref="CountAsOwn"/>).
/// </param>
/// <param name="Timestamp">When it was read (<see cref="Stopwatch"/>).</param>
internal readonly record struct MachineLoad(
    double? LoadAverage, long? BusyTicks, long? StealTicks, long? TotalTicks, TimeSpan OwnCpu, long Timestamp)
{
    // /proc/stat counts in USER_HZ, 100 on every Linux architecture .NET runs on.
    private const double TicksPerSecond = 100;

    // Other processes used three quarters of the other cores or more on average, or the hypervisor stole this share of
    // CPU time: busy. The test runner's own processes (vstest.console reading results) stay well below it.
    private const double BusyOtherCores = 0.75;

    private const double BusySteal = 0.02;

    /// <summary>Reads the counts now.</summary>
    public static MachineLoad Read()
    {
        double? load = null;
        long? busy = null, steal = null, total = null;
        try
        {
            if (File.Exists("/proc/loadavg")
                && double.TryParse(
                    File.ReadAllText("/proc/loadavg").Split(' ')[0], NumberStyles.Float, CultureInfo.InvariantCulture, out double l))
            {
                load = l;
            }

            if (File.Exists("/proc/stat") && File.ReadLines("/proc/stat").FirstOrDefault() is { } cpu
                && cpu.StartsWith("cpu ", StringComparison.Ordinal))
            {
                // cpu user nice system idle iowait irq softirq steal (guest time is inside user already).
                long[] f = [.. cpu.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8)
                    .Select(static v => long.Parse(v, CultureInfo.InvariantCulture))];
                if (f.Length == 8)
                {
                    total = f.Sum();
                    busy = total - f[3] - f[4];
                    steal = f[7];
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            // A container without /proc or with a masked one: the report says the load is unknown.
        }

        using var self = Process.GetCurrentProcess();
        return new MachineLoad(
            load, busy, steal, total, self.TotalProcessorTime + WaitedChildren() + LiveHelpers(), Stopwatch.GetTimestamp());
    }

    /// <summary>
    /// Counts the CPU time of a child that works for this process while it runs (a simulation worker) as this process's
    /// own, until <see cref="Forget"/>: once waited for, its time is among the children's (<c>cutime</c>).
    /// </summary>
    /// <param name="pid">The child's process id.</param>
    public static void CountAsOwn(int pid)
    {
        lock (s_helpers)
            s_helpers.Add(pid);
    }

    /// <summary>Stops counting a child's CPU time as this process's own (after it was waited for).</summary>
    /// <param name="pid">The child's process id.</param>
    public static void Forget(int pid)
    {
        lock (s_helpers)
            s_helpers.Remove(pid);
    }

    private static readonly HashSet<int> s_helpers = [];

    // The CPU time of the live children counted as this process's own (utime + stime of /proc/{pid}/stat). A child reaped
    // meanwhile has no file any more: its time is among the waited children's then, never counted twice.
    private static TimeSpan LiveHelpers()
    {
        int[] pids;
        lock (s_helpers)
            pids = [.. s_helpers];
        TimeSpan sum = TimeSpan.Zero;
        foreach (int pid in pids)
            sum += StatTimes(string.Create(CultureInfo.InvariantCulture, $"/proc/{pid}/stat"), userField: 11);
        return sum;
    }

    // The CPU time of this process's children that have ended and been waited for (cutime + cstime of /proc/self/stat): the
    // fresh processes a recording starts to measure the body (docs/VERDICTS.md, "Levels") are this test's own work, not
    // other processes keeping the machine busy. Zero where /proc cannot be read.
    private static TimeSpan WaitedChildren() => StatTimes("/proc/self/stat", userField: 13);

    // Two adjacent CPU-time fields of a /proc/{pid}/stat, in clock ticks: utime and stime (fields 14 and 15 of the file, 11
    // and 12 after the command), or cutime and cstime (16 and 17; 13 and 14). Zero where the file cannot be read.
    private static TimeSpan StatTimes(string path, int userField)
    {
        try
        {
            if (!File.Exists(path))
                return TimeSpan.Zero;

            // pid (comm) state ppid ...: the command may hold spaces and parentheses, so the fields start after the last ')'.
            string stat = File.ReadAllText(path);
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields.Length > userField + 1
                && long.TryParse(fields[userField], NumberStyles.Integer, CultureInfo.InvariantCulture, out long user)
                && long.TryParse(fields[userField + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out long system)
                ? TimeSpan.FromSeconds((user + system) / TicksPerSecond)
                : TimeSpan.Zero;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return TimeSpan.Zero;
        }
    }

    /// <summary>
    /// How many cores' worth of CPU time other processes used between <paramref name="before"/> and <paramref name="after"/>
    /// (all CPUs' busy time, less this process's own); <see cref="double.NaN"/> where <c>/proc/stat</c> cannot be read.
    /// </summary>
    public static double OtherCores(MachineLoad before, MachineLoad after)
    {
        double seconds = Stopwatch.GetElapsedTime(before.Timestamp, after.Timestamp).TotalSeconds;
        if (before.BusyTicks is not { } b0 || after.BusyTicks is not { } b1 || seconds <= 0)
            return double.NaN;
        return Math.Max(0, ((b1 - b0) / TicksPerSecond) - (after.OwnCpu - before.OwnCpu).TotalSeconds) / seconds;
    }

    /// <summary>
    /// Whether other processes used enough CPU to disturb a time measurement: three quarters of the cores the measured
    /// thread does not use (on 2 cores, 0.75 of a core). A user's perf test that ran while `dotnet test` ran another test project beside it
    /// (1.18 of 2 cores) read +46 % on unchanged code, task-clock too, in both measurements.
    /// </summary>
    public static bool IsBusy(double otherCores) => IsBusy(otherCores, Environment.ProcessorCount);

    /// <summary>
    /// <see cref="IsBusy(double)"/> on a machine of <paramref name="cores"/> cores: the verdict rules pass the policy's core
    /// count (<c>JudgementPolicy.Cores</c>), so a table of evidence is judged the same on any machine.
    /// </summary>
    public static bool IsBusy(double otherCores, int cores) => otherCores >= BusyOtherCores * Math.Max(1, cores - 1);

    /// <summary>The line the report shows, and whether the machine was busy.</summary>
    /// <param name="before">Read before the test measured.</param>
    /// <param name="after">Read after.</param>
    /// <returns>The line (<see langword="null"/> when nothing could be read) and the busy flag.</returns>
    public static (string? Line, bool Busy) Describe(MachineLoad before, MachineLoad after)
    {
        var parts = new List<string>();
        bool busy = false;
        double otherCores = OtherCores(before, after);
        if (!double.IsNaN(otherCores) && before is { StealTicks: { } s0, TotalTicks: { } t0 }
            && after is { StealTicks: { } s1, TotalTicks: { } t1 } && t1 > t0)
        {
            double stolen = (double)(s1 - s0) / (t1 - t0);
            parts.Add(string.Create(
                CultureInfo.InvariantCulture,
                $"other processes used {otherCores:0.00} of {Environment.ProcessorCount} cores during the test"));
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"{stolen:0.0%} of CPU time stolen by the hypervisor"));
            busy = IsBusy(otherCores) || stolen > BusySteal;
        }

        if (before.LoadAverage is { } l0 && after.LoadAverage is { } l1)
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"load average {l0:0.00} before, {l1:0.00} after"));

        if (parts.Count == 0)
            return (null, false);

        string line = "Machine: " + string.Join("; ", parts) + ".";
        return busy
            ? (MeasurementMessages.MachineWasBusy(line), true)
            : (line, false);
    }
}
