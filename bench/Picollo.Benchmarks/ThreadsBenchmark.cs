using System.Diagnostics;
using System.Globalization;
using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// The article's multi-threaded record benchmark: the same 1,000,000 values recorded by 1 and by 2
/// writer threads at once into one histogram, every variant and thread count interleaved round-robin in
/// the same process; the best and the median run are reported in wall ns per value per writer.
/// </summary>
internal static class ThreadsBenchmark
{
    /// <summary>The article's multi-threaded cases: everything, and a small range (more collisions per bucket).</summary>
    public static readonly long[] MaxTrackableValues = [long.MaxValue, 30_000];

    /// <summary>This machine has 2 cores: 2 writers fill it.</summary>
    public static readonly int[] ThreadCounts = [1, 2];

    /// <summary>Every configuration runs at least this many rounds.</summary>
    public const int MinRounds = 15;

    /// <summary>After <see cref="MinRounds"/>, rounds continue until every configuration has this many clean runs…</summary>
    public const int TargetCleanRuns = 5;

    /// <summary>…or the case has spent this long in its rounds, or <see cref="MaxRounds"/> were run (keeps the whole command near 2-3 minutes).</summary>
    public const long RoundsBudgetNanos = 50_000_000_000;

    public const int MaxRounds = 200;

    /// <summary>
    /// A run is clean when every writer's thread CPU time covers at least this share of the run's wall
    /// time: no writer was preempted or started late. On a shared 2-core machine a preempted writer lets
    /// the other run alone, uncontended, so unclean runs can even look faster for contended variants
    /// (down to twice the 1-thread time, the serial bound): the figures come from clean runs only.
    /// </summary>
    public const double CleanOnCpuFraction = 0.95;

    /// <summary>Each timed run lasts about this long (repeats calibrated per variant and thread count).</summary>
    /// <remarks>
    /// Half the record command's: on a shared machine a run is clean only if no other process wanted a core
    /// during it, and shorter runs fit into more of the quiet gaps.
    /// </remarks>
    public const long TargetRunNanos = 50_000_000;

    private const int WarmupSliceLength = 10_000;

    public static int Run()
    {
        DateTimeOffset started = DateTimeOffset.UtcNow;
        string loadBefore = MachineInfo.ReadLoadAverage();
        long processStart = Stopwatch.GetTimestamp();
        var measurements = new List<ThreadsMeasurement>();

        WriterGroup[] groups = [.. ThreadCounts.Select(threads => new WriterGroup(threads))];
        try
        {
            foreach (long max in MaxTrackableValues)
                measurements.AddRange(MeasureCase(max, groups));
        }
        finally
        {
            foreach (WriterGroup group in groups)
                group.Dispose();
        }

        double seconds = NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - processStart) / 1e9;
        var report = new ThreadsReport(measurements, MachineInfo.Current(), started, seconds, loadBefore, MachineInfo.ReadLoadAverage());

        Console.WriteLine();
        Console.Write(report.ToConsoleText());

        string path = ResultsWriter.DefaultPath();
        ResultsWriter.WriteSection(path, "threads", report.ToMarkdown());
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Wrote {path} (section 'threads') after {seconds:F0} s."));
        return 0;
    }

    /// <summary>
    /// A fresh set of histograms: every thread count gets its own, so thread-local shards never mix.
    /// Picollo with 64-bit counters (the default) only: 32-bit counters cost the same at 1 thread, and
    /// fewer configurations leave more rounds for catching clean 2-thread runs.
    /// </summary>
    private static ThreadsVariant[] CreateVariants(long max) =>
    [
        new PicolloThreadsVariant(max, HdrConcurrency.ThreadLocal, uint64Storage: true),
        new PicolloThreadsVariant(max, HdrConcurrency.ThreadLocal, uint64Storage: true, writer: true),
        new PicolloThreadsVariant(max, HdrConcurrency.Interlocked, uint64Storage: true),
        new PicolloThreadsVariant(max, HdrConcurrency.SingleWriter, uint64Storage: true),
        new ConcurrentHistogramThreadsVariant(max),
        new RecorderThreadsVariant(max),
    ];

    private static List<ThreadsMeasurement> MeasureCase(long max, WriterGroup[] groups)
    {
        long[] values = RecordWorkload.Create(max);
        long[] warmupValues = values[..WarmupSliceLength];
        long[] prime = values[..1];

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Max trackable {max:N0}:"));
        var runs = new List<(WriterGroup Group, ThreadsMeasurement Measurement)>();
        foreach (WriterGroup group in groups)
        {
            foreach (ThreadsVariant variant in CreateVariants(max))
            {
                WarmUp(group, variant, prime, values, warmupValues);
                int repeats = Calibrate(group, variant, prime, values);
                runs.Add((group, new ThreadsMeasurement(max, group.Threads, variant, repeats)));
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"  {variant.Name,-40} {group.Threads} thread(s) warmed up, {repeats} repeats per run"));
            }
        }

        GC.Collect();
        GC.WaitForPendingFinalizers();

        long roundsStart = Stopwatch.GetTimestamp();
        int round = 0;
        for (; round < MaxRounds; round++)
        {
            if (round >= MinRounds &&
                (runs.All(r => r.Measurement.CleanRunCount >= TargetCleanRuns) ||
                 NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - roundsStart) >= RoundsBudgetNanos))
            {
                break;
            }

            // Rotate the starting configuration so none always runs right after the same neighbour.
            for (int k = 0; k < runs.Count; k++)
            {
                (WriterGroup group, ThreadsMeasurement measurement) = runs[(round + k) % runs.Count];
                TimedRun(group, measurement, prime, values);
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {round} rounds"));
        foreach ((_, ThreadsMeasurement m) in runs)
        {
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"  {m.Variant.Name,-40} {m.Threads}T best {m.BestNanosPerOp,7:F2} ns/op, median {m.MedianNanosPerOp,7:F2} ns/op, " +
                $"clean {m.CleanRunCount}/{m.RunCount} best {m.CleanBestNanosPerOp,7:F2}, footprint {m.FootprintInBytes:N0} B, " +
                $"miscounted runs {m.MiscountedRuns}, allocated {m.AllocatedBytes} B"));
        }

        return [.. runs.Select(r => r.Measurement)];
    }

    private static void WarmUp(WriterGroup group, ThreadsVariant variant, long[] prime, long[] values, long[] warmupValues)
    {
        long start = Stopwatch.GetTimestamp();
        int calls = 0;
        while (calls < RecordBenchmark.WarmupCalls || NanoScope.TicksToNanos(Stopwatch.GetTimestamp() - start) < RecordBenchmark.WarmupNanos)
        {
            group.Run(variant, prime, warmupValues, 1);
            if (++calls % 50 == 0)
                group.Run(variant, prime, values, 1);
        }

        variant.Reset();
    }

    private static int Calibrate(WriterGroup group, ThreadsVariant variant, long[] prime, long[] values)
    {
        ulong fastest = ulong.MaxValue;
        for (int i = 0; i < 3; i++)
            fastest = Math.Min(fastest, group.Run(variant, prime, values, 1).WallNanos);

        variant.Reset();
        return (int)Math.Clamp(Math.Round((double)TargetRunNanos / Math.Max(fastest, 1)), 1, 1000);
    }

    private static void TimedRun(WriterGroup group, ThreadsMeasurement measurement, long[] prime, long[] values)
    {
        ThreadsVariant variant = measurement.Variant;
        variant.Reset();

        ParallelRun run = group.Run(variant, prime, values, measurement.Repeats);

        // Footprint first: in the thread-local mode a read may fold the shards of exited writers (none
        // exit here, the writers are long-lived, but the order keeps the figure honest either way).
        long footprint = variant.FootprintInBytes;
        long total = variant.ReadTotalCount();
        long valuesPerThread = (long)measurement.Repeats * values.Length;
        long expected = group.Threads * (valuesPerThread + prime.Length);
        measurement.Add(run, valuesPerThread, expected, total, footprint);
    }
}
