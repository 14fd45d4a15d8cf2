using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Text;
using System.Text.Json;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using Picollo.Counters;
using Picollo.Observation;

namespace Picollo.Benchmarks;

/// <summary>
/// What a span costs (issue 16; docs/OBSERVATION.md, "Counters and what they cost"): an empty span with the default counters
/// against the reads it is made of (two raw <c>lfence; rdtsc</c> and two allocated-bytes reads), with and without listeners,
/// disabled, and with a counter read by a system call; then the sample service's throughput with spans on and off.
/// Variants run round-robin, each round in every noise mode, so a disturbance hits all alike; figures are medians with the
/// range over rounds, and ratios are taken within a round (same moment, same machine state).
/// </summary>
internal static class SpansBenchmark
{
    private const int Rounds = 15;
    private const int SpansPerRun = 1_000_000;
    private const int SyscallSpansPerRun = 50_000;
    private const double Budget = 1.5;

    private static readonly PerfSpan s_span = PerfSpan.Create("bench.empty");
    private static readonly PerfSpan s_syscallSpan = PerfSpan.Create(
        "bench.task-clock", new PerfSpanOptions { Counters = [CounterNames.Tsc, CounterNames.AllocatedBytes, CounterNames.TaskClock], AllowSyscallReads = true });

    private static ulong s_sink;

    public static int Run(string[] args)
    {
        if (args.Length > 0 && args[0] == "service")
            return RunService(args[1..]);
        bool quick = args.Contains("--quick");
        int rounds = quick ? 3 : Rounds;
        int spans = quick ? 200_000 : SpansPerRun;
        if (!Tsc.IsSupported)
        {
            Console.Error.WriteLine($"TSC not supported: {Tsc.UnsupportedReason}");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string load = MachineInfo.ReadLoadAverage();
        Console.WriteLine($"{machine.Cpu}, {machine.LogicalCores} CPUs, {machine.OperatingSystem}, {machine.Runtime}; load {load}");
        CpuSpinner.PinCurrentThread(0);

        Variant[] variants =
        [
            new("reference: 2 × lfence;rdtsc + 2 × allocated-bytes", Reference, spans),
            new("span, default counters, no listener", EmptySpans, spans),
            new("span, a MeterListener on the Picollo meter", EmptySpans, spans, Listener: Listener.Meter),
            new("span, the OpenTelemetry SDK collecting (MeterProvider, in-memory exporter)", EmptySpans, spans, Listener: Listener.OpenTelemetry),
            new("span, an in-process EventListener on the Picollo source", EmptySpans, spans, Listener: Listener.Events),
            new("span disabled (PerfSpan.Enabled = false)", EmptySpans, spans, Disabled: true),
            new("span + task-clock (AllowSyscallReads)", SyscallSpans, SyscallSpansPerRun),
        ];

        string[] modes = ["idle", "spinner"];
        var nanos = new Dictionary<(string Mode, int Variant), List<double>>();
        var bytes = new double[variants.Length];
        foreach (Variant v in variants)
            Measure(v, Math.Min(v.Spans, 100_000)); // warm up: tier-1 code, the thread's histogram shards, the sessions
        Thread.Sleep(500);

        for (int round = 0; round < rounds; round++)
        {
            foreach (string mode in modes)
            {
                using CpuSpinner? spinner = mode == "spinner" && Environment.ProcessorCount > 1 ? new CpuSpinner(1) : null;
                for (int v = 0; v < variants.Length; v++)
                {
                    (double ns, double perSpanBytes) = Measure(variants[v], variants[v].Spans);
                    if (!nanos.TryGetValue((mode, v), out List<double>? list))
                        nanos[(mode, v)] = list = [];
                    list.Add(ns);
                    bytes[v] = Math.Max(bytes[v], perSpanBytes);
                }
            }
        }

        var table = new StringBuilder();
        table.Append("| variant | mode | ns/span median (range) | × reference, median (range over rounds) | bytes/span (max) |\n|---|---|---:|---:|---:|\n");
        var verdicts = new List<string>();
        foreach (string mode in modes)
        {
            List<double> reference = nanos[(mode, 0)];
            for (int v = 0; v < variants.Length; v++)
            {
                List<double> values = nanos[(mode, v)];
                double[] ratios = [.. values.Select((x, i) => x / reference[i])];
                table.Append(CultureInfo.InvariantCulture,
                    $"| {variants[v].Name} | {mode} | {Median(values):F1} ({values.Min():F1}–{values.Max():F1}) | {Median(ratios):F2} ({ratios.Min():F2}–{ratios.Max():F2}) | {bytes[v]:0.###} |\n");
                if (v == 1)
                {
                    bool met = Median(ratios) <= Budget && bytes[1] == 0 && bytes[2] == 0;
                    verdicts.Add(string.Create(CultureInfo.InvariantCulture,
                        $"{mode}: an empty span costs {Median(ratios):F2}× the reference (rounds {ratios.Min():F2}–{ratios.Max():F2}), {bytes[1]:0.###} B/span without a listener and {bytes[2]:0.###} B/span with a MeterListener (budget ≤ {Budget:F1}×, 0 B): {(met ? "met" : "NOT met")}"));
                }
            }
        }

        Console.WriteLine();
        Console.Write(table);
        foreach (string verdict in verdicts)
            Console.WriteLine(verdict);
        if (quick)
            return 0;

        string section = string.Create(CultureInfo.InvariantCulture,
            $"""
            ## Spans: the cost of a span

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- spans`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}; TSC {Tsc.Frequency}
            - {rounds} rounds; per round and mode every variant once ({spans:N0} empty spans, {SyscallSpansPerRun:N0} with task-clock), measured thread pinned to CPU 0; mode spinner: CPU 1 busy with a dependent arithmetic loop

            {table}
            {string.Join("\n", verdicts.Select(static v => "- " + v))}

            The reference is what a span cannot avoid: `Tsc.ReadStart(); GC.GetAllocatedBytesForCurrentThread();` at both ends,
            results consumed. A span adds the thread's state lookup, two thread-local histogram records and one `Enabled` check
            per listener kind. The in-process EventListener row allocates in the runtime's dispatch (`EventWrittenEventArgs` and
            boxed payloads), not in the span: an EventPipe session (dotnet-trace) receives the same events with 0 B per span
            (tests/Picollo.Tests/Observation/PerfSpanEventPipeTests).
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "spans", section);
        return 0;
    }

    private static (double NanosPerSpan, double BytesPerSpan) Measure(Variant variant, int spans)
    {
        using IDisposable? listener = variant.Listener switch
        {
            Listener.Meter => StartMeterListener(),
            Listener.Events => new SpanEventListener(),
            // The SDK's own aggregation on every span's values (what a service exporting to a collector pays), exporting
            // only when disposed: the periodic reader's default interval is a minute.
            Listener.OpenTelemetry => Sdk.CreateMeterProviderBuilder().AddMeter(PerfSpan.MeterName).AddInMemoryExporter(new List<Metric>()).Build(),
            _ => null,
        };
        PerfSpan.Enabled = !variant.Disabled;
        try
        {
            int collections = GC.CollectionCount(0);
            long allocated = GC.GetAllocatedBytesForCurrentThread();
            long start = Stopwatch.GetTimestamp();
            s_sink ^= variant.Loop(spans);
            double ns = Stopwatch.GetElapsedTime(start).TotalNanoseconds / spans;
            long bytes = GC.GetAllocatedBytesForCurrentThread() - allocated;
            // A collection anywhere retires this thread's allocation context and shows up as phantom bytes: not the span's.
            return (ns, GC.CollectionCount(0) == collections || variant.Listener == Listener.Events ? (double)bytes / spans : 0);
        }
        finally
        {
            PerfSpan.Enabled = true;
        }
    }

    private static ulong Reference(int spans)
    {
        ulong sink = 0;
        for (int i = 0; i < spans; i++)
        {
            ulong start = Tsc.ReadStart();
            long allocatedStart = GC.GetAllocatedBytesForCurrentThread();
            long allocatedEnd = GC.GetAllocatedBytesForCurrentThread();
            ulong end = Tsc.ReadStart();
            sink += end - start + (ulong)(allocatedEnd - allocatedStart);
        }

        return sink;
    }

    private static ulong EmptySpans(int spans)
    {
        PerfSpan span = s_span;
        for (int i = 0; i < spans; i++)
        {
            using (span.Enter())
            {
            }
        }

        return (ulong)spans;
    }

    private static ulong SyscallSpans(int spans)
    {
        PerfSpan span = s_syscallSpan;
        for (int i = 0; i < spans; i++)
        {
            using (span.Enter())
            {
            }
        }

        return (ulong)spans;
    }

    private static MeterListener StartMeterListener()
    {
        var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, l) =>
            {
                if (instrument.Meter.Name == PerfSpan.MeterName)
                    l.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<double>(static (_, value, _, _) => s_sink += (ulong)(value * 1e9));
        listener.SetMeasurementEventCallback<long>(static (_, value, _, _) => s_sink += (ulong)value);
        listener.Start();
        return listener;
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    /// <summary>
    /// The sample service's throughput with spans on and off, measured two ways: child processes in ABBA order (so a drift of
    /// the machine weighs on both arms alike; per pair the on/off ratio), and processes that alternate spans on and off in
    /// phases of 250 ms while their workers run (<c>--spans alternate</c>), which compares like with like: between two
    /// processes of the same arm throughput spreads by 10–15 % on this VM, far more than spans cost.
    /// </summary>
    private static int RunService(string[] args)
    {
        int pairs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int p) ? p : 8;
        double seconds = args.Length > 1 && double.TryParse(args[1], CultureInfo.InvariantCulture, out double s) ? s : 4;
        int alternating = args.Length > 2 && int.TryParse(args[2], CultureInfo.InvariantCulture, out int a) ? a : 4;
        string root = Path.GetDirectoryName(Path.GetDirectoryName(ResultsWriter.DefaultPath()))!;
        string service = Path.Combine(root, "samples", "TextKit.ObservedService", "bin", "Release", "net10.0", "TextKit.ObservedService.dll");
        if (!File.Exists(service))
        {
            Console.Error.WriteLine($"{service} does not exist: build it first with 'dotnet build samples/TextKit.ObservedService -c Release'.");
            return 2;
        }

        MachineInfo machine = MachineInfo.Current();
        string load = MachineInfo.ReadLoadAverage();
        var on = new List<double>();
        var off = new List<double>();
        var ratios = new List<double>();
        for (int pair = 0; pair < pairs; pair++)
        {
            // ABBA: on, off, then off, on in the next pair.
            bool onFirst = pair % 2 == 0;
            double first = RunServiceOnce(service, onFirst ? "on" : "off", seconds).Throughput;
            double second = RunServiceOnce(service, onFirst ? "off" : "on", seconds).Throughput;
            (double withSpans, double without) = onFirst ? (first, second) : (second, first);
            on.Add(withSpans);
            off.Add(without);
            ratios.Add(withSpans / without);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"pair {pair + 1}: spans on {withSpans:N0} docs/s, off {without:N0} docs/s, on/off {withSpans / without:F3}"));
        }

        double offSpread = (off.Max() - off.Min()) / Median(off);
        string processes = string.Create(CultureInfo.InvariantCulture,
            $"processes: on/off median {Median(ratios):F3} (pairs {ratios.Min():F3}–{ratios.Max():F3}); the off arm alone spreads {offSpread:P1} between runs");
        Console.WriteLine(processes);

        // Twice as long as a process of the pairs: a phase pair is 0.5 s and the first one is a warm-up.
        double alternateSeconds = 2 * seconds;
        var phases = new List<double>();
        var processMedians = new List<double>();
        for (int run = 0; run < alternating; run++)
        {
            double[] runRatios = RunServiceOnce(service, "alternate", alternateSeconds).Ratios;
            phases.AddRange(runRatios);
            processMedians.Add(Median(runRatios));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"alternating process {run + 1}: {runRatios.Length} phase pairs, on/off median {processMedians[^1]:F3} ({runRatios.Min():F3}–{runRatios.Max():F3})"));
        }

        (double low, double high) = MedianInterval(phases);
        double median = Median(phases);
        bool withinNoise = low <= 1 && 1 <= high;
        string conclusion = withinNoise
            ? "within noise (the interval holds 1)"
            : string.Create(CultureInfo.InvariantCulture, $"spans cost {1 - median:P1} of the throughput");
        string verdict = string.Create(CultureInfo.InvariantCulture,
            $"phases: on/off median {median:F3} over {phases.Count} phase pairs, 95 % interval of the median {low:F3}–{high:F3}, process medians {processMedians.Min():F3}–{processMedians.Max():F3}: {conclusion}");
        Console.WriteLine(verdict);

        string section = string.Create(CultureInfo.InvariantCulture,
            $"""
            ## Spans: overhead in the sample service

            Command: `dotnet build samples/TextKit.ObservedService -c Release && dotnet run -c Release --project bench/Picollo.Benchmarks -- spans service {pairs} {seconds} {alternating}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - `samples/TextKit.ObservedService --workers 2 --export none --json`: a producer thread and 2 workers, 4 spans per document (document ⊃ tokenize, hash, index), ≈ 25–40 µs per document
            - Processes: `--seconds {seconds}`, spans on and off (`--spans off`: `PerfSpan.Enabled = false`), {pairs} pairs in ABBA order
            - Phases: {alternating} processes of `--seconds {alternateSeconds} --spans alternate` (spans on and off in alternating 250 ms phases, ABBA, the first pair dropped), the ratio of each pair's on phase to its off phase, pooled

            | arm | documents/s median | range |
            |---|---:|---:|
            | processes, spans on | {Median(on):N0} | {on.Min():N0}–{on.Max():N0} |
            | processes, spans off | {Median(off):N0} | {off.Min():N0}–{off.Max():N0} |

            - {processes}.
            - {verdict}.
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "spans-service", section);
        return 0;
    }

    /// <summary>
    /// A distribution-free 95 % interval of the median: the order statistics whose ranks lie 1.96 standard deviations of a
    /// Binomial(n, ½) either side of n/2.
    /// </summary>
    private static (double Low, double High) MedianInterval(List<double> values)
    {
        double[] sorted = [.. values.Order()];
        int n = sorted.Length;
        double half = 1.96 * Math.Sqrt(n) / 2;
        int low = Math.Max(0, (int)Math.Floor((n / 2.0) - half));
        int high = Math.Min(n - 1, (int)Math.Ceiling((n / 2.0) + half) - 1);
        return (sorted[low], sorted[high]);
    }

    private static (double Throughput, double[] Ratios) RunServiceOnce(string service, string spans, double seconds)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (string argument in new[] { service, "--seconds", seconds.ToString(CultureInfo.InvariantCulture), "--workers", "2", "--spans", spans, "--export", "none", "--json" })
            start.ArgumentList.Add(argument);
        using Process process = Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        using JsonDocument json = JsonDocument.Parse(output.Trim().Split('\n')[^1]);
        double[] ratios = json.RootElement.TryGetProperty("ratios", out JsonElement r) ? [.. r.EnumerateArray().Select(static e => e.GetDouble())] : [];
        return (json.RootElement.GetProperty("throughput").GetDouble(), ratios);
    }

    private enum Listener
    {
        None,
        Meter,
        OpenTelemetry,
        Events,
    }

    private sealed record Variant(string Name, Func<int, ulong> Loop, int Spans, Listener Listener = Listener.None, bool Disabled = false);

    /// <summary>An in-process listener of the span events (what a test would use; production uses EventPipe).</summary>
    private sealed class SpanEventListener : EventListener
    {
        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == PerfSpan.EventSourceName)
                EnableEvents(eventSource, EventLevel.Informational, (EventKeywords)0x1);
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData) => s_sink++;
    }
}
