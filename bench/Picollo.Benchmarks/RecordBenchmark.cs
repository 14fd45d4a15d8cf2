using System.Diagnostics;
using System.Globalization;
using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// The article's single-threaded record benchmark: every variant records the same values in the
/// same process, interleaved round-robin so machine noise hits all of them alike; the best and the
/// median run are reported in ns per recorded value.
/// </summary>
internal static class RecordBenchmark
{
    /// <summary>The article's cases: HdrHistogram.NET's test default, a small range, one second in ns, everything.</summary>
    public static readonly long[] MaxTrackableValues = [RecordWorkload.ArticleMaxValue, 30_000, (long)NanoScope.OneSecondValue, long.MaxValue];

    /// <summary>
    /// The four in-range cases, then the article's own 30,000 case: its benchmark draws every case's values
    /// up to 7,716,549,600, so at 30,000 most of them overflow.
    /// </summary>
    public static readonly RecordCase[] Cases =
    [
        .. MaxTrackableValues.Select(RecordCase.InRange),
        new RecordCase(30_000, RecordWorkload.ArticleMaxValue),
    ];

    public const int Rounds = 15;

    /// <summary>
    /// Each timed run lasts about this long (the repeat count is calibrated per variant). Short runs in
    /// many rounds give the best-of statistic more chances to catch a run that no other process disturbed.
    /// </summary>
    public const long TargetRunNanos = 100_000_000;

    /// <summary>Minimum warm-up per variant: long enough for tier-0 → instrumented → tier-1 with PGO.</summary>
    public const long WarmupNanos = 1_000_000_000;

    /// <summary>Minimum calls of Run during warm-up: tiering promotes a method after 30 calls, twice with PGO.</summary>
    public const int WarmupCalls = 200;

    private const int WarmupSliceLength = 10_000;

    public static int Run()
    {
        DateTimeOffset started = DateTimeOffset.UtcNow;
        string loadBefore = MachineInfo.ReadLoadAverage();
        long processStart = Stopwatch.GetTimestamp();
        var measurements = new List<RecordMeasurement>();

        foreach (RecordCase recordCase in Cases)
            measurements.AddRange(MeasureCase(recordCase));

        double seconds = NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - processStart) / 1e9;
        var report = new RecordReport(measurements, MachineInfo.Current(), started, seconds, loadBefore, MachineInfo.ReadLoadAverage());

        Console.WriteLine();
        Console.Write(report.ToConsoleText());

        string path = ResultsWriter.DefaultPath();
        ResultsWriter.WriteSection(path, "record", report.ToMarkdown());
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Wrote {path} (section 'record') after {seconds:F0} s."));
        return 0;
    }

    private static List<RecordMeasurement> MeasureCase(RecordCase recordCase)
    {
        long max = recordCase.MaxTrackableValue;
        long[] values = RecordWorkload.Create(recordCase.ValueMax);
        long[] warmupValues = values[..WarmupSliceLength];

        var picollo32 = new PicolloRecordVariant(max, uint64Storage: false);
        var picollo64 = new PicolloRecordVariant(max, uint64Storage: true);
        List<RecordVariant> variants =
        [
            new FloorHistogram(picollo32.Histogram, uint64Storage: false),
            picollo32,
            new PicolloWriterRecordVariant(max, uint64Storage: false),
            new FloorHistogram(picollo64.Histogram, uint64Storage: true),
            picollo64,
            new PicolloWriterRecordVariant(max, uint64Storage: true),
        ];

        // LongHistogram.RecordValue throws above its highest trackable value: no overflow-heavy figure.
        // There instead, a floor with its overflow counter in a register shows what the in-memory one costs.
        if (!recordCase.IsOverflowHeavy)
            variants.Add(new LongHistogramRecordVariant(max));
        else
            variants.Add(new FloorHistogram(picollo64.Histogram, uint64Storage: true, overflowInLocal: true));

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Max trackable {recordCase.Label}:"));
        var measurements = new RecordMeasurement[variants.Count];
        for (int i = 0; i < variants.Count; i++)
        {
            WarmUp(variants[i], values, warmupValues);
            int repeats = Calibrate(variants[i], values);
            measurements[i] = new RecordMeasurement(recordCase, variants[i], repeats);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {variants[i].Name,-18} warmed up, {repeats} repeats per run"));
        }

        GC.Collect();
        GC.WaitForPendingFinalizers();

        for (int round = 0; round < Rounds; round++)
        {
            // Rotate the starting variant so none always runs right after the same neighbour.
            for (int k = 0; k < variants.Count; k++)
            {
                int i = (round + k) % variants.Count;
                TimedRun(measurements[i], values);
            }
        }

        foreach (RecordMeasurement m in measurements)
        {
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"  {m.Variant.Name,-18} best {m.BestNanosPerOp,6:F2} ns/op, median {m.MedianNanosPerOp,6:F2} ns/op, allocated {m.AllocatedBytes} B"));
        }

        return [.. measurements];
    }

    private static void WarmUp(RecordVariant variant, long[] values, long[] warmupValues)
    {
        long start = Stopwatch.GetTimestamp();
        int calls = 0;
        while (calls < WarmupCalls || NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - start) < WarmupNanos)
        {
            variant.Run(warmupValues, 1);
            if (++calls % 50 == 0)
                variant.Run(values, 1);
        }

        variant.Reset();
    }

    private static int Calibrate(RecordVariant variant, long[] values)
    {
        ulong fastest = ulong.MaxValue;
        for (int i = 0; i < 3; i++)
        {
            long start = Stopwatch.GetTimestamp();
            variant.Run(values, 1);
            fastest = Math.Min(fastest, NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - start));
        }

        variant.Reset();
        return (int)Math.Clamp(Math.Round((double)TargetRunNanos / Math.Max(fastest, 1)), 1, 1000);
    }

    private static void TimedRun(RecordMeasurement measurement, long[] values)
    {
        RecordVariant variant = measurement.Variant;
        variant.Reset();

        long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        long start = Stopwatch.GetTimestamp();
        variant.Run(values, measurement.Repeats);
        long stop = Stopwatch.GetTimestamp();
        long allocatedAfter = GC.GetAllocatedBytesForCurrentThread();

        measurement.Add(NanoScope.TicksToNanos(stop - start), (long)measurement.Repeats * values.Length, allocatedAfter - allocatedBefore);
    }
}
