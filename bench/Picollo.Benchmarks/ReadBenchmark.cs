using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Metrics;
using Picollo.PerfEvents;

namespace Picollo.Benchmarks;

/// <summary>
/// Cost of one sample boundary of a perf_event session: <c>Read(forceSyscallRead: true)</c> of a group of
/// 1 and of 3 software events against the floor, a raw read() of the same leader fd through the same
/// P/Invoke. Goal (docs/ARCHITECTURE.md, "Hot paths"): one syscall per boundary for the whole group, ≤ 1.2× the raw read, 0 bytes.
/// </summary>
public static class ReadBenchmark
{
    private const int OperationsPerRound = 20_000;
    private const int Rounds = 15;

    /// <summary>Runs the benchmark and prints one line per case; returns 0, or 1 when a goal is missed.</summary>
    /// <param name="args">Unused.</param>
    /// <returns>The process exit code.</returns>
    public static int Run(string[] args)
    {
        _ = args;
        bool ok = true;
        string load = MachineInfo.ReadLoadAverage();
        var table = new StringBuilder();
        table.Append("| Group | Raw read() ns/op | Session.Read(syscall) ns/op | Ratio | Bytes/Read |\n");
        table.Append("| ----: | ---------------: | --------------------------: | ----: | ---------: |\n");
        ok &= RunGroup(
            table,
            "1 (task-clock)",
            PerfEventCounterSession.Factory.WithKernel(false).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock));
        ok &= RunGroup(
            table,
            "3 (task-clock, page-faults, minor-faults)",
            PerfEventCounterSession.Factory.WithKernel(false)
                .WithSoftwareCounter(PerfSoftwareCounterId.TaskClock)
                .WithSoftwareCounter(PerfSoftwareCounterId.PageFaults)
                .WithSoftwareCounter(PerfSoftwareCounterId.PageFaultsMin));
        Console.Write(table);

        MachineInfo machine = MachineInfo.Current();
        string verdict = ok ? "met" : "NOT met";
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "read", string.Create(CultureInfo.InvariantCulture, $"""
            ## Sample boundary: one perf_event group read

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- read`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - Best of {Rounds} interleaved rounds of {OperationsPerRound:N0} reads; software events (this machine has no hardware PMU).

            {table}
            Goal (docs/ARCHITECTURE.md, "Hot paths"): one syscall per boundary for the whole group, ≤ 1.2× a raw `read()` of the same
            leader fd through the same P/Invoke, 0 bytes per Read: {verdict}.
            """));
        return ok ? 0 : 1;
    }

    private static bool RunGroup(StringBuilder table, string name, PerfEventCounterSessionBuilder builder)
    {
        using PerfEventCounterSession session = builder.Create();
        if (session.Counters.Count == 0)
        {
            table.Append(CultureInfo.InvariantCulture, $"| {name} | unavailable: {string.Join(" ", session.UnavailableCounters.Select(d => d.UnavailableReason))} |\n");
            return false;
        }

        byte[] buffer = new byte[24 + (16 * session.Counters.Count)];
        int fd = session.LeaderFd;

        // Interleaved rounds, best round per case: both cases see the same machine noise, and the minimum
        // is the cost without preemption.
        double raw = double.MaxValue;
        double read = double.MaxValue;
        long bytes = 0;
        for (int round = 0; round < Rounds; round++)
        {
            raw = Math.Min(raw, RawRound(fd, buffer));
            long before = GC.GetAllocatedBytesForCurrentThread();
            read = Math.Min(read, SessionRound(session));
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            if (round > 0)
                bytes = Math.Max(bytes, allocated);
        }

        double ratio = read / raw;
        double bytesPerRead = (double)bytes / OperationsPerRound;
        table.Append(CultureInfo.InvariantCulture, $"| {name} | {raw:F0} | {read:F0} | {ratio:F2}x | {bytesPerRead:F1} |\n");
        return ratio <= 1.2 && bytes == 0;
    }

    private static unsafe double RawRound(int fd, byte[] buffer)
    {
        long start = Stopwatch.GetTimestamp();
        fixed (byte* p = buffer)
        {
            for (int i = 0; i < OperationsPerRound; i++)
            {
                if (Interop.Fd.Read(fd, p, (nuint)buffer.Length) <= 0)
                    throw new InvalidOperationException("raw read() failed");
            }
        }

        return (double)NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - start) / OperationsPerRound;
    }

    private static double SessionRound(PerfEventCounterSession session)
    {
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; i < OperationsPerRound; i++)
        {
            if (session.Read(forceSyscallRead: true) != PerfEventReadStatus.Syscall)
                throw new InvalidOperationException(session.LastError);
        }

        return (double)NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - start) / OperationsPerRound;
    }
}
