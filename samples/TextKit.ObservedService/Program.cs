using System.Diagnostics;
using System.Globalization;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using Picollo.Observation;
using TextKit.ObservedService;

// A document-indexing service in miniature: a producer feeds synthetic documents into a channel, workers index them under
// spans for a few seconds, the OpenTelemetry SDK exports the spans' histograms (console exporter, every 2 s), and the span
// table is printed at the end (docs/OBSERVATION.md).
ServiceOptions? options = ServiceOptions.Parse(args, out string? error);
if (options is null)
{
    Console.Error.WriteLine(error);
    return 2;
}

// Before any span is entered: the "spans off" arm runs the same work with every span a no-op. Without --spans the
// environment decides (PICOLLO_SPANS=0 starts the process with spans off).
if (options.Spans is bool spansOn)
    PerfSpan.Enabled = spansOn;
string spansState = options.Alternate ? "alternate" : PerfSpan.Enabled ? "on" : "off";

IndexerSpans spans;
try
{
    spans = new IndexerSpans(options.Counters);
}
catch (ArgumentException ex)
{
    // One line, without the parameter name the exception appends (it names PerfSpanOptions, not this command line).
    string message = ex.ParamName is null ? ex.Message : ex.Message.Replace($" (Parameter '{ex.ParamName}')", string.Empty, StringComparison.Ordinal);
    Console.Error.WriteLine($"--counters '{string.Join(',', options.Counters)}': {message.ReplaceLineEndings(" ")}");
    return 2;
}

MeterProvider? metrics = options.Export == "console"
    ? Sdk.CreateMeterProviderBuilder()
        .ConfigureResource(resource => resource.AddService("TextKit.ObservedService"))
        .AddMeter(PerfSpan.MeterName)
        .AddConsoleExporter((_, reader) => reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = 2_000)
        .Build()
    : null;

var monitor = new PerfSpanMonitor(deltas: false);
using var stop = new CancellationTokenSource();
// 1,024 distinct documents (≈ 1.6 MB of text), at most 1,024 waiting in the channel.
var feed = new DocumentFeed(seed: 17, documents: 1_024, capacity: 1_024, stop.Token);
var indexers = new Indexer[options.Workers];
// Each worker's count, published after every document (one slot per 128 bytes, so the workers share no cache line) for the
// phases of --spans alternate to read while they run.
const int Stride = 16;
var processed = new long[options.Workers * Stride];
var workers = new Thread[options.Workers];
for (int w = 0; w < workers.Length; w++)
{
    int worker = w;
    indexers[w] = new Indexer(spans);
    workers[w] = new Thread(() =>
    {
        Indexer indexer = indexers[worker];
        long done = 0;
        while (!stop.IsCancellationRequested && feed.TryTake(out string? document))
        {
            indexer.Index(document);
            Volatile.Write(ref processed[worker * Stride], ++done);
        }
    })
    { Name = "indexer-" + worker, IsBackground = true };
}

feed.Start();
var clock = Stopwatch.StartNew();
foreach (Thread worker in workers)
    worker.Start();
List<double>? phaseRatios = null;
if (options.Alternate)
    phaseRatios = AlternatePhases(TimeSpan.FromSeconds(options.Seconds), processed, clock);
stop.CancelAfter(TimeSpan.FromSeconds(Math.Max(0, options.Seconds - clock.Elapsed.TotalSeconds)));
foreach (Thread worker in workers)
    worker.Join();
double seconds = clock.Elapsed.TotalSeconds;
feed.Join();

long documents = processed.Sum();
double throughput = documents / seconds;

// Shutting the provider down exports once more (the final values), so its output comes before ours, and only once.
metrics?.Dispose();

if (options.Json)
{
    // The last line of the output, whatever the exporter printed before it (bench/Picollo.Benchmarks reads it).
    Console.WriteLine(string.Create(
        CultureInfo.InvariantCulture,
        $"{{\"documents\":{documents},\"seconds\":{seconds:0.000},\"throughput\":{throughput:0.0},\"spans\":\"{spansState}\"{PhaseJson(phaseRatios)}}}"));
    return 0;
}

Console.WriteLine(string.Create(
    CultureInfo.InvariantCulture,
    $"Indexed {documents:N0} documents in {seconds:0.00} s with {options.Workers} workers: {throughput:N0} documents/s, spans {spansState}."));
Console.WriteLine(string.Create(
    CultureInfo.InvariantCulture,
    $"Index: {indexers.Sum(static i => i.Terms):N0} terms over the workers' maps, token hash checksum {indexers.Aggregate(0UL, static (c, i) => c ^ i.Checksum):x16}."));
if (phaseRatios is { Count: > 0 })
{
    Console.WriteLine(string.Create(
        CultureInfo.InvariantCulture,
        $"Spans alternated on and off every {PhaseMilliseconds} ms: throughput on/off median {Median(phaseRatios):F3} over {phaseRatios.Count} pairs of phases ({phaseRatios.Min():F3}–{phaseRatios.Max():F3}); the table holds the spans of the on phases."));
}

Console.WriteLine();
monitor.Update();
Console.Write(monitor.ToMarkdown("Spans of this run"));
return 0;

// --spans alternate: the same process, its workers running throughout, with spans on and off in alternating phases (ABBA
// pairs, the first pair a warm-up) until the deadline; each pair gives the ratio of its on phase's throughput to its off
// phase's. Two processes differ by more than spans do (a 10–15 % spread between runs on a VM), phases of one do not.
static List<double> AlternatePhases(TimeSpan duration, long[] processed, Stopwatch clock)
{
    var ratios = new List<double>();
    for (int pair = 0; clock.Elapsed + TimeSpan.FromMilliseconds(2 * PhaseMilliseconds) <= duration; pair++)
    {
        bool onFirst = pair % 2 == 0;
        double first = PhaseThroughput(onFirst, processed);
        double second = PhaseThroughput(!onFirst, processed);
        if (pair > 0)
            ratios.Add(onFirst ? first / second : second / first);
    }

    PerfSpan.Enabled = true;
    return ratios;
}

static double PhaseThroughput(bool spansOn, long[] processed)
{
    PerfSpan.Enabled = spansOn;
    long before = Documents(processed);
    long start = Stopwatch.GetTimestamp();
    Thread.Sleep(PhaseMilliseconds);
    return (Documents(processed) - before) / Stopwatch.GetElapsedTime(start).TotalSeconds;
}

static long Documents(long[] processed)
{
    long sum = 0;
    for (int i = 0; i < processed.Length; i++)
        sum += Volatile.Read(ref processed[i]);
    return sum;
}

static double Median(List<double> values)
{
    List<double> sorted = [.. values.Order()];
    return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
}

static string PhaseJson(List<double>? ratios) => ratios is null
    ? string.Empty
    : ",\"phaseMilliseconds\":" + PhaseMilliseconds.ToString(CultureInfo.InvariantCulture) +
      ",\"ratios\":[" + string.Join(",", ratios.Select(static r => r.ToString("0.0000", CultureInfo.InvariantCulture))) + "]";

/// <summary>Constants of the program.</summary>
internal static partial class Program
{
    /// <summary>The length of one phase of <c>--spans alternate</c>.</summary>
    private const int PhaseMilliseconds = 250;
}
