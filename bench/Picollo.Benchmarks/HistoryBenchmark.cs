using System.Diagnostics;
using System.Globalization;
using System.Text;
using Npgsql;
using Picollo.Cli;
using Picollo.Cli.History;
using Picollo.Cli.History.Store;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Benchmarks;

/// <summary>
/// Issue 52's proof "Store and report speed": adding a run of 100 tests, and reading a report's series over 1,000 runs,
/// in seconds, on the SQLite file and on PostgreSQL (the server PICOLLO_TEST_POSTGRES or <c>--postgres</c> names; a
/// database of its own, dropped after). The store is filled by 1,000 timed adds of the same 100-test run.
/// </summary>
internal static class HistoryBenchmark
{
    private const int Tests = 100;

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : 1_000;
        string? server = Option(args, "--postgres") ?? Environment.GetEnvironmentVariable("PICOLLO_TEST_POSTGRES");
        string dir = Path.Combine(Path.GetTempPath(), "picollo-bench-history-" + Guid.NewGuid().ToString("N"));
        try
        {
            string folder = WriteFolder(Path.Combine(dir, "results"));
            (IReadOnlyList<HistoryResult> results, double readSeconds) = ReadFolder(folder);
            double toolSeconds = ToolAdd(folder, Path.Combine(dir, "tool.db"));
            var rows = new StringBuilder();
            rows.Append(Row("SQLite file", Measure(Path.Combine(dir, "history.db"), results, runs)));
            if (server is null)
            {
                Console.Error.WriteLine("PICOLLO_TEST_POSTGRES is not set and no --postgres given: PostgreSQL not measured.");
            }
            else
            {
                using var database = new BenchDatabase(server);
                rows.Append(Row("PostgreSQL (local server)", Measure(database.ConnectionString, results, runs)));
            }

            Write(runs, results.Count, readSeconds, toolSeconds, server is not null, rows.ToString());
            return 0;
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }

    // One store: `runs` adds of the run, each timed, then a report's reading: every series key and every series.
    private static Figures Measure(string store, IReadOnlyList<HistoryResult> results, int runs)
    {
        var adds = new double[runs];
        DateTime start = DateTime.UtcNow.AddDays(-runs);
        using (IHistoryStore history = HistoryStores.Open(store))
        {
            for (int i = 0; i < runs; i++)
            {
                var run = new HistoryRun("bench", ".NET", $"c{i}", $"c{i - 1}", "main", start.AddMinutes(i));
                long before = Stopwatch.GetTimestamp();
                history.Add(run, results);
                adds[i] = Stopwatch.GetElapsedTime(before).TotalSeconds;
                if ((i + 1) % 100 == 0)
                    Console.Error.WriteLine($"{store.Split(';')[0]}: {i + 1} runs added");
            }
        }

        long reading = Stopwatch.GetTimestamp();
        int series = 0, points = 0;
        using (IHistoryStore history = HistoryStores.Open(store, create: false))
        {
            foreach (HistorySeriesKey key in history.SeriesKeys(null))
            {
                series++;
                points += history.Series(key, "main").Count;
            }
        }

        double report = Stopwatch.GetElapsedTime(reading).TotalSeconds;
        Array.Sort(adds);
        return new Figures(adds[adds.Length / 2], adds[(int)(adds.Length * 0.9)], adds[^1], adds.Sum(), report, series, points);
    }

    private static string Row(string store, Figures f) =>
        string.Create(CultureInfo.InvariantCulture,
            $"| {store} | {f.AddMedian:0.000} | {f.AddP90:0.000} | {f.AddMax:0.000} | {f.AddTotal:0.0} | {f.Series:#,0} × {f.Points / Math.Max(1, f.Series):#,0} | {f.Report:0.00} |\n");

    private static void Write(int runs, int results, double read, double tool, bool postgres, string rows)
    {
        MachineInfo machine = MachineInfo.Current();
        string section =
            "## Results history: adding a run of 100 tests, and a report's series over 1,000 runs (issue 52)\n\n"
            + $"Run {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC: `dotnet run -c Release --project bench/Picollo.Benchmarks -- history {runs}`"
            + (postgres ? " with PICOLLO_TEST_POSTGRES naming a local PostgreSQL 15 server" : "")
            + $" on {machine.Cpu}, {machine.LogicalCores} cores (shared with other jobs; load {MachineInfo.ReadLoadAverage()}), {machine.Runtime}.\n\n"
            + string.Create(CultureInfo.InvariantCulture,
                $"One run: {Tests} result files of 3 counters each (tsc, allocated-bytes, gen0-collections), {results} results with their ")
            + "histograms. Reading the folder (ResultFolder.Read and the results built from it) took "
            + string.Create(CultureInfo.InvariantCulture, $"{read:0.000} s; `picollo history add` of it as a process, to a new SQLite file, {tool:0.00} s ")
            + "(process start, git, reading, creating the schema, adding). Then each store takes "
            + string.Create(CultureInfo.InvariantCulture, $"{runs:#,0} adds of that run, each timed (one transaction each), and a report's reading: ")
            + "every series key, then every series of branch main (SeriesKeys, then Series per key, as `picollo history report` reads them).\n\n"
            + "| store | add, median s | add, P90 s | add, max s | all adds, s | series × points | report reading, s |\n"
            + "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
            + rows;
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "history", section);
    }

    // 100 result files as perf tests write them (the library's own report).
    private static string WriteFolder(string folder)
    {
        Directory.CreateDirectory(folder);
        var random = new Random(52);
        for (int t = 0; t < Tests; t++)
        {
            ulong ticks = (ulong)random.Next(100, 100_000);
            PerfResult result = Result(
                Counter("tsc", "ticks", CounterKind.Tsc, Enumerable.Range(0, 100).Select(i => (ticks * 1_000) + (ulong)random.Next(0, (int)ticks * 100))),
                Counter("allocated-bytes", "bytes", CounterKind.Runtime, Enumerable.Repeat((ulong)(t * 8_000), 100)),
                Counter("gen0-collections", "collections", CounterKind.Runtime, Enumerable.Range(0, 100).Select(i => i % 10 == 0 ? 1UL : 0UL)));
            string test = $"Bench.Suite{t / 10}.Test{t:000}";
            File.WriteAllText(Path.Combine(folder, test + ".result.json"), new PerfReport(test, result).ToJson());
        }

        return folder;
    }

    private static (IReadOnlyList<HistoryResult> Results, double Seconds) ReadFolder(string folder)
    {
        var seconds = new double[5];
        List<HistoryResult> results = [];
        for (int i = 0; i < seconds.Length; i++)
        {
            long before = Stopwatch.GetTimestamp();
            ResultFolder read = ResultFolder.Read(folder);
            results = [.. read.Reports.SelectMany(r => HistoryResult.From(r.Value, read.Tests[r.Key]))];
            seconds[i] = Stopwatch.GetElapsedTime(before).TotalSeconds;
        }

        Array.Sort(seconds);
        return (results, seconds[seconds.Length / 2]);
    }

    // `picollo history add` as CI runs it: the built tool (copied beside this benchmark) in its own process; the median of 3.
    private static double ToolAdd(string folder, string store)
    {
        var seconds = new double[3];
        for (int i = 0; i < seconds.Length; i++)
        {
            var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in (string[])[Path.Combine(AppContext.BaseDirectory, "Picollo.Cli.dll"), "history", "add", folder, "--store", store + i, "--commit", "bench"])
                start.ArgumentList.Add(argument);
            long before = Stopwatch.GetTimestamp();
            using Process tool = Process.Start(start)!;
            string output = tool.StandardOutput.ReadToEnd() + tool.StandardError.ReadToEnd();
            tool.WaitForExit();
            seconds[i] = Stopwatch.GetElapsedTime(before).TotalSeconds;
            if (tool.ExitCode != 0)
                throw new InvalidOperationException("picollo history add failed: " + output);
        }

        Array.Sort(seconds);
        return seconds[1];
    }

    private static CounterResult Counter(string name, string unit, CounterKind kind, IEnumerable<ulong> samples)
    {
        ulong[] values = [.. samples];
        Metrics.HdrHistogram histogram = Metrics.HdrHistogram.Factory.Create();
        foreach (ulong value in values)
            histogram.Record(value);
        Metrics.HdrHistogram overheadHistogram = Metrics.HdrHistogram.Factory.Create();
        overheadHistogram.Record(0, 10);
        var overhead = new CounterOverhead(overheadHistogram, 0, 0, 0, 0, 0, 10);
        return new CounterResult(new CounterDescriptor(name, unit, kind), 1_000, values, histogram, overhead, double.NaN);
    }

    private static PerfResult Result(params CounterResult[] counters) => new(counters, PerfOptions.Default, new PerfRunInfo
    {
        OperationsPerSample = 1_000,
        SampleCount = 100,
        WarmupTime = TimeSpan.FromMilliseconds(100),
        WarmupEnd = WarmupEnd.CodeOptimized,
        WallTime = TimeSpan.FromSeconds(1),
        TimestampUtc = DateTime.UtcNow,
        Notes = [],
    });

    private static string? Option(string[] args, string name)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : null;
    }

    private sealed record Figures(double AddMedian, double AddP90, double AddMax, double AddTotal, double Report, int Series, int Points);

    // A database of its own on the server, dropped after, so the figures start from an empty store.
    private sealed class BenchDatabase : IDisposable
    {
        private readonly NpgsqlConnectionStringBuilder _server;
        private readonly string _name = "picollo_bench_" + Guid.NewGuid().ToString("N");

        public BenchDatabase(string server)
        {
            _server = new NpgsqlConnectionStringBuilder(server) { Pooling = false };
            Execute($"CREATE DATABASE {_name}");
            ConnectionString = new NpgsqlConnectionStringBuilder(_server.ConnectionString) { Database = _name }.ConnectionString;
        }

        public string ConnectionString { get; }

        public void Dispose() => Execute($"DROP DATABASE IF EXISTS {_name} WITH (FORCE)");

        private void Execute(string sql)
        {
            using var connection = new NpgsqlConnection(_server.ConnectionString);
            connection.Open();
            using var command = new NpgsqlCommand(sql, connection);
            command.ExecuteNonQuery();
        }
    }
}
