using System.Diagnostics;
using System.Globalization;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using Picollo.Observation;
using TextKit.ObservedService;

// A document-indexing service in miniature: workers index synthetic documents under spans for a few seconds, the OpenTelemetry
// SDK exports the spans' histograms (console exporter), and the span table is printed at the end (docs/OBSERVATION.md).
ServiceOptions? options = ServiceOptions.Parse(args, out string? error);
if (options is null)
{
    Console.Error.WriteLine(error);
    return 2;
}

PerfSpan.Enabled = options.Spans;
IndexerSpans spans;
try
{
    spans = new IndexerSpans(options.Counters);
}
catch (ArgumentException ex)
{
    Console.Error.WriteLine("--counters: " + ex.Message);
    return 2;
}

using MeterProvider? metrics = options.Export == "console"
    ? Sdk.CreateMeterProviderBuilder()
        .AddMeter(PerfSpan.MeterName)
        .AddConsoleExporter((_, reader) => reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = 60_000)
        .Build()
    : null;

var monitor = new PerfSpanMonitor(deltas: false);
long documents = 0;
var indexers = new Indexer[options.Workers];
using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(options.Seconds));
var clock = Stopwatch.StartNew();
var workers = new Thread[options.Workers];
for (int w = 0; w < workers.Length; w++)
{
    int worker = w;
    workers[w] = new Thread(() =>
    {
        string[] corpus = DocumentSource.Create(seed: 17 + worker, count: 256);
        var indexer = indexers[worker] = new Indexer(spans);
        long done = 0;
        while (!stop.IsCancellationRequested)
        {
            indexer.Index(corpus[done % corpus.Length]);
            done++;
        }

        Interlocked.Add(ref documents, done);
    })
    { Name = "indexer-" + worker, IsBackground = true };
    workers[w].Start();
}

foreach (Thread worker in workers)
    worker.Join();
double seconds = clock.Elapsed.TotalSeconds;
double throughput = documents / seconds;

if (options.Json)
{
    Console.WriteLine(string.Create(
        CultureInfo.InvariantCulture,
        $"{{\"documents\":{documents},\"seconds\":{seconds:0.000},\"throughput\":{throughput:0.0},\"spans\":\"{(options.Spans ? "on" : "off")}\"}}"));
    return 0;
}

metrics?.ForceFlush();
Console.WriteLine(string.Create(
    CultureInfo.InvariantCulture,
    $"Indexed {documents:N0} documents in {seconds:0.00} s with {options.Workers} workers: {throughput:N0} documents/s, spans {(options.Spans ? "on" : "off")}; {indexers.Sum(static i => i.Terms):N0} terms, checksum {indexers.Aggregate(0UL, static (c, i) => c ^ i.Checksum):x16}."));
Console.WriteLine();
monitor.Update();
Console.Write(monitor.ToMarkdown("Spans of this run"));
return 0;
