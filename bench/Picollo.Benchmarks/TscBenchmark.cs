using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Picollo.Counters;

namespace Picollo.Benchmarks;

/// <summary>
/// Per-read cost of the time sources a sample boundary can use (issue 3; docs/ARCHITECTURE.md, "Hot paths"): the raw native
/// <c>lfence; rdtsc</c>, <c>rdtscp; lfence</c>, the TSC counter source (the TSC-only boundary), a counter set,
/// the runtime counters, <see cref="Stopwatch.GetTimestamp"/> and <c>clock_gettime(CLOCK_MONOTONIC_RAW)</c>.
/// Every variant runs <see cref="ReadsPerRun"/> reads per run, round-robin so machine noise hits all alike;
/// the best run is the figure (noise only ever adds), the median shows the spread.
/// </summary>
internal static class TscBenchmark
{
    public const int ReadsPerRun = 10_000_000;

    public const int Runs = 7;

    /// <summary>Calls per variant before timing: tiering promotes after 30 calls (twice with PGO), plus OSR for the loops.</summary>
    private const int WarmupCalls = 80;

    private const int WarmupReads = 100_000;

    /// <summary>The budget of docs/ARCHITECTURE.md, "Hot paths": the TSC-only boundary costs at most this many raw reads.</summary>
    private const double BoundaryBudget = 2.0;

    private static readonly ICounterSource s_tscSource = new TscCounterSource();
    private static readonly ICounterSource s_tscSet = new CounterSet(new TscCounterSource());
    private static readonly ICounterSource s_runtimeSource = new RuntimeCounterSource();

    private static readonly Variant[] s_variants =
    [
        new("Tsc.ReadStart: lfence;rdtsc (raw native read)", ReadStartLoop),
        new("Tsc.ReadEnd: rdtscp;lfence", ReadEndLoop),
        new("TscCounterSource.ReadCumulative (TSC-only boundary)", TscSourceLoop),
        new("CounterSet(tsc).ReadCumulative", TscSetLoop),
        new("RuntimeCounterSource.ReadCumulative (7 counters)", RuntimeSourceLoop),
        new("Stopwatch.GetTimestamp", StopwatchLoop),
        new("clock_gettime(CLOCK_MONOTONIC_RAW)", ClockLoop),
    ];

    public static int Run(string[] args)
    {
        _ = args;
        if (!Tsc.IsSupported)
        {
            Console.Error.WriteLine($"TSC not supported: {Tsc.UnsupportedReason}");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string load = MachineInfo.ReadLoadAverage();
        string header = string.Create(CultureInfo.InvariantCulture,
            $"TSC {Tsc.Frequency}, invariant: {Tsc.IsInvariant}, rdtscp: {Tsc.HasRdtscp}; {ReadsPerRun:N0} reads per run, best of {Runs} runs");
        Console.WriteLine($"{machine.Cpu}, {machine.LogicalCores} CPUs, {machine.OperatingSystem}, {machine.Runtime}");
        Console.WriteLine(header);

        foreach (Variant variant in s_variants)
        {
            for (int i = 0; i < WarmupCalls; i++)
                variant.Loop(WarmupReads);
        }

        // Let the background tiering thread install the final code before timing.
        Thread.Sleep(500);

        var nanosPerRead = new double[s_variants.Length][];
        var allocated = new long[s_variants.Length];
        for (int v = 0; v < s_variants.Length; v++)
            nanosPerRead[v] = new double[Runs];

        for (int run = 0; run < Runs; run++)
        {
            for (int v = 0; v < s_variants.Length; v++)
            {
                long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
                long start = Stopwatch.GetTimestamp();
                s_variants[v].Loop(ReadsPerRun);
                long elapsed = Stopwatch.GetTimestamp() - start;
                allocated[v] += GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
                nanosPerRead[v][run] = Stopwatch.GetElapsedTime(0, elapsed).Ticks * 100.0 / ReadsPerRun;
            }
        }

        double raw = nanosPerRead[0].Min();
        var table = new StringBuilder();
        table.Append("| Read | best ns/read | median ns/read | × raw lfence;rdtsc | bytes/read |\n");
        table.Append("|---|---:|---:|---:|---:|\n");
        for (int v = 0; v < s_variants.Length; v++)
        {
            double best = nanosPerRead[v].Min();
            double median = nanosPerRead[v].Order().ElementAt(Runs / 2);
            double bytesPerRead = (double)allocated[v] / ((long)ReadsPerRun * Runs);
            table.Append(CultureInfo.InvariantCulture, $"| {s_variants[v].Name} | {best:F2} | {median:F2} | {best / raw:F2} | {bytesPerRead:0.###} |\n");
        }

        double boundaryRatio = nanosPerRead[2].Min() / raw;
        bool withinBudget = boundaryRatio <= BoundaryBudget && allocated[2] == 0;
        string verdict = string.Create(CultureInfo.InvariantCulture,
            $"TSC-only boundary: {boundaryRatio:F2}× a raw lfence;rdtsc, {allocated[2]} bytes allocated (budget ≤ {BoundaryBudget:F1}×, 0 bytes): {(withinBudget ? "met" : "NOT met")}");
        Console.WriteLine();
        Console.Write(table);
        Console.WriteLine();
        Console.WriteLine(verdict);

        string section = string.Create(CultureInfo.InvariantCulture,
            $"""
            ## TSC reads and the TSC-only sample boundary

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- tsc`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - {header}

            {table}
            {verdict}. The boundary is `TscCounterSource.ReadCumulative` through the `ICounterSource` interface
            (rdtscp;lfence + one interface call); the raw read is `lfence;rdtsc` through P/Invoke with SuppressGCTransition.
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "tsc", section);
        return withinBudget ? 0 : 1;
    }

    private static ulong ReadStartLoop(int reads)
    {
        ulong sink = 0;
        for (int i = 0; i < reads; i++)
            sink ^= Tsc.ReadStart();
        return sink;
    }

    private static ulong ReadEndLoop(int reads)
    {
        ulong sink = 0;
        for (int i = 0; i < reads; i++)
            sink ^= Tsc.ReadEnd();
        return sink;
    }

    private static ulong TscSourceLoop(int reads) => SourceLoop(s_tscSource, reads);

    private static ulong TscSetLoop(int reads) => SourceLoop(s_tscSet, reads);

    private static ulong RuntimeSourceLoop(int reads) => SourceLoop(s_runtimeSource, reads);

    // Through the interface, as the engine calls its sources. The loop is shared by three source types, so the
    // call site is polymorphic and PGO cannot devirtualize it: the same situation as the engine's loop over sources.
    private static ulong SourceLoop(ICounterSource source, int reads)
    {
        Span<ulong> values = stackalloc ulong[source.Descriptors.Count];
        ulong sink = 0;
        for (int i = 0; i < reads; i++)
        {
            source.ReadCumulative(values);
            sink ^= values[0];
        }

        return sink;
    }

    private static ulong StopwatchLoop(int reads)
    {
        ulong sink = 0;
        for (int i = 0; i < reads; i++)
            sink ^= (ulong)Stopwatch.GetTimestamp();
        return sink;
    }

    private static ulong ClockLoop(int reads)
    {
        ulong sink = 0;
        for (int i = 0; i < reads; i++)
            sink ^= Interop.Clock.GetNanoseconds(Interop.Clock.CLOCK_MONOTONIC_RAW);
        return sink;
    }

    private sealed record Variant(string Name, Func<int, ulong> Loop);
}
