using Picollo.Samples;

// The demo runner: `dotnet run --project samples/Picollo.Samples -- [example…]`, all examples by default.
var examples = new (string Name, Action Run)[]
{
    ("getting-started", HistogramExamples.GettingStarted),
    ("percentiles", HistogramExamples.Percentiles),
    ("custom-percentiles", HistogramExamples.CustomPercentiles),
    ("snapshot", MonitoringExamples.Snapshot),
    ("monitoring", () => MonitoringExamples.Monitoring()),
    ("scopes", () => HistogramExamples.Scopes()),
    ("clock-resolution", HistogramExamples.ClockResolution),
    ("perf-availability", CounterExamples.Availability),
    ("perf-session", CounterExamples.PerfSession),
    ("tsc", CounterExamples.TscClock),
    ("runtime-counters", CounterExamples.RuntimeCounters),
    ("measure", MeasurementExamples.Measure),
    ("baseline", MeasurementExamples.Baseline),
};

var selected = args.Length == 0 ? examples.Select(e => e.Name).ToArray() : args;
foreach (string name in selected)
{
    var example = examples.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));
    if (example.Run is null)
    {
        Console.Error.WriteLine($"Unknown example '{name}'. Known: {string.Join(", ", examples.Select(e => e.Name))}.");
        return 2;
    }

    Console.WriteLine($"=== {example.Name}");
    example.Run();
    Console.WriteLine();
}

return 0;
