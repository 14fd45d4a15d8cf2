using System.Globalization;
using Picollo.Assertions;
using Picollo.Measurement;

namespace Picollo.Samples;

/// <summary>The measurement engine and its assertions on a ~100 ns operation.</summary>
public static class MeasurementExamples
{
    /// <summary>
    /// Measures parsing a number with the default options, prints one table per counter, asserts on the
    /// results, and shows what an assertion on a counter this machine cannot count does.
    /// </summary>
    public static void Measure()
    {
        string text = "1234567890";
        PerfResult result = Perf.Measure(text, static s => long.Parse(s, CultureInfo.InvariantCulture));

        Console.WriteLine(result);
        Console.WriteLine(result.ToMarkdown());

        result.AllocatedBytes.ShouldHaveZeroBudget();
        result.Tsc.ShouldHaveP99AtMost(100_000);
        Console.WriteLine($"passed: allocated-bytes is 0 per operation, TSC P99 = {result.Tsc.P99:N1} ticks per operation");

        try
        {
            result.Cycles.ShouldHaveP99AtMost(1_000);
            Console.WriteLine("passed: cycles P99 ≤ 1,000 per operation");
        }
        catch (PerfCounterUnavailableException unavailable)
        {
            // The default host throws; the xUnit/NUnit adapters turn this into a warning or a skip.
            Console.WriteLine($"not run: {unavailable.Message}");
        }
    }

    /// <summary>
    /// Judges the same measurement against the baseline committed beside this file
    /// (<c>MeasurementExamples.Baseline.perf.json</c>): allocated bytes compare on any machine with the same .NET
    /// runtime, TSC and task-clock only on the CPU model that recorded them, and every other machine is told
    /// "no baseline for this machine". The report (tables, verdicts, JSON and SVG paths) is printed by the assertion.
    /// </summary>
    public static void Baseline()
    {
        string text = "1234567890";
        PerfResult result = Perf.Measure(text, static s => long.Parse(s, CultureInfo.InvariantCulture));
        try
        {
            result.ShouldNotRegress();
            Console.WriteLine("passed: no counter regressed against MeasurementExamples.Baseline.perf.json");
        }
        catch (PerfAssertionException regression)
        {
            // A demo keeps going; a test would fail here, with this message.
            Console.WriteLine($"failed: {regression.Message}");
        }
    }
}
