using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Cli.Ab;
using Picollo.Measurement;
using TextKit;

namespace Picollo.Benchmarks;

/// <summary>
/// <c>bench ab</c> (issue 26): picollo ab's runner on the bodies project's three perf tests (a chain, allocation units,
/// the sample library's word count), base at work 1.0 and head at 1.0 (A/A), 1.05, 1.10, 1.20, in each noise mode, the
/// workers on CPU 0 as the other benches measure, the noise on CPU 1 (and 0 for bursts). Each run is a whole picollo ab
/// run after the builds: fresh process pairs, adaptive. Beside it, the stored-baseline verdict of the same change to the
/// chain and the word count, recorded and judged in this process as <c>ShouldNotRegress</c> does.
/// Every run's outcome is appended to bench/ab-runs.jsonl with its session (date, host, code); with <c>--accumulate</c> the
/// section counts every run of that log, so the issue's 20 runs per arm (about 5 hours here) can come from several sessions.
/// </summary>
internal static class AbBenchmark
{
    // NaN ratios (a run with no time) are written as "NaN"; "+5%" as it reads (the log is committed and read in diffs).
    private static readonly JsonSerializerOptions s_json = new()
    {
        NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    private static readonly (string Name, double Work)[] s_arms = [("A/A", 1.0), ("+5%", 1.05), ("+10%", 1.10), ("+20%", 1.20)];

    // The bodies' build folder copied whole (the assembly, its dependencies, its runtime files) into a new temporary folder.
    private static string CopyToAnotherFolder(string assembly)
    {
        string source = Path.GetDirectoryName(assembly)!;
        string target = Directory.CreateTempSubdirectory("picollo-ab-bench-head-").FullName;
        foreach (string file in Directory.GetFiles(source, "*", SearchOption.AllDirectories))
        {
            string copy = Path.Combine(target, Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(file, copy);
        }

        return Path.Combine(target, Path.GetFileName(assembly));
    }

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : 10;
        string[] modes = [.. (VerdictsBenchmark.Option(args, "--modes") ?? NoiseMode.Names).Select(static m => m == "other-process" ? "process" : m)];
        bool accumulate = args.Contains("--accumulate");
        int storedRuns = VerdictsBenchmark.Option(args, "--stored-runs") is [{ } stored] && int.TryParse(stored, CultureInfo.InvariantCulture, out int k) ? Math.Min(k, runs) : Math.Min(5, runs);
        if (modes.FirstOrDefault(m => !NoiseMode.Names.Contains(m)) is { } unknown)
        {
            Console.Error.WriteLine($"Unknown noise mode '{unknown}': use {string.Join(", ", NoiseMode.Names)}.");
            return 2;
        }

        string assembly = Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", "..", "..", "Picollo.Benchmarks.AbBodies", "bin", "Release", "net10.0", "Picollo.Benchmarks.AbBodies.dll"));
        // This thread stays unpinned: the workers it starts inherit its affinity, and pinned to one CPU their tiering thread
        // competed with the warmup, which then ended on tier-0 code (1.5 s, 2-4× slower) on one side of every pair.
        if (!File.Exists(assembly) || Environment.ProcessorCount < 2)
        {
            Console.Error.WriteLine($"ab needs the bodies built in Release ({assembly}: dotnet build bench/Picollo.Benchmarks -c Release) and CPUs 0 and 1.");
            return 1;
        }

        // --fifty: the 50-test project (FiftyTests), to time a whole run of a team's project; else the three bodies.
        bool fifty = args.Contains("--fifty");
        AbTestAssembly bodies = AbDiscovery.FindTests(
            "bench/Picollo.Benchmarks.AbBodies/Picollo.Benchmarks.AbBodies.csproj", assembly, fifty ? "FullyQualifiedName~FiftyTests" : "FullyQualifiedName!~FiftyTests");
        if (fifty)
            storedRuns = 0;
        var options = new AbOptions { Cpu = NoiseMode.MeasuredCpu };
        if (VerdictsBenchmark.Option(args, "--samples") is [{ } cap] && int.TryParse(cap, CultureInfo.InvariantCulture, out int perPair))
            options = options with { SamplesPerPair = perPair };

        // --tests-per-pair 1: a process pair per test, as before a pair ran a round's tests, to compare in one session.
        if (VerdictsBenchmark.Option(args, "--tests-per-pair") is [{ } tests] && int.TryParse(tests, CultureInfo.InvariantCulture, out int testsPerPair))
            options = options with { TestsPerPair = testsPerPair };
        (string Name, double Work)[] arms = VerdictsBenchmark.Option(args, "--arms") is { } named ? [.. s_arms.Where(a => named.Contains(a.Name))]
            : fifty ? [.. s_arms.Take(2)] : s_arms;
        // --two-folders: the head's workers run a copy of the bodies in another folder, as picollo ab runs two worktrees'
        // builds. xunit v3 orders tests by IDs hashed from the assembly's path, so the two sides then run their tests in
        // different orders (docs/VERDICTS.md, "Base against head"); from one folder both sides run one order.
        string headAssembly = args.Contains("--two-folders") ? CopyToAnotherFolder(assembly) : assembly;
        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var total = Stopwatch.StartNew();
        string folder = Directory.CreateTempSubdirectory("picollo-ab-bench-").FullName;
        string log = Path.Combine(Path.GetDirectoryName(ResultsWriter.DefaultPath())!, fifty ? "ab-fifty-runs.jsonl" : "ab-runs.jsonl");
        string session = string.Create(CultureInfo.InvariantCulture, $"{DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {machine.Cpu} {MachineFingerprint.Current.TscMegahertz:N0} MHz, code {Commit()}, {options.SamplesPerPair} samples per pair");
        var rows = new List<Row>();
        var storedRows = new List<StoredRow>();
        if (accumulate && File.Exists(log))
            ReadLog(log, rows, storedRows);
        foreach (string modeName in modes)
        {
            using NoiseMode mode = NoiseMode.Start(modeName);
            StoredBaseline[] baselines = storedRuns > 0 ? [.. StoredBodies.Select(b => StoredBaseline.Recorded(b, VerdictsBenchmark.Options, modeName, folder))] : [];
            for (int run = 0; run < runs; run++)
            {
                for (int i = 0; i < arms.Length; i++)
                {
                    // The arms' order turns with each run, so a slow spell of the host does not always fall on the same arm.
                    (string arm, double work) = arms[(i + run) % arms.Length];
                    AbTestAssembly baseSide = bodies with { Environment = new Dictionary<string, string> { ["PICOLLO_BENCH_WORK"] = "1.0" } };
                    AbTestAssembly headSide = bodies with { AssemblyPath = headAssembly, Environment = new Dictionary<string, string> { ["PICOLLO_BENCH_WORK"] = work.ToString("R", CultureInfo.InvariantCulture) } };
                    var watch = Stopwatch.StartNew();
                    IReadOnlyList<AbTestResult> results = AbRunner.Run([baseSide], [headSide], options, static _ => { }, CancellationToken.None);
                    double seconds = watch.Elapsed.TotalSeconds;
                    foreach (AbTestResult result in results)
                    {
                        AbTimeEstimate? time = result.Measurements.Count > 0 ? result.Measurements[0].Time : null;
                        var row = new Row(session, modeName, arm, result.Test.MethodName, result.Verdict, time?.Ratio ?? double.NaN, result.ProcessPairs, seconds, result.Problems)
                        {
                            Tests = results.Count,
                            Bound = time?.EquivalenceBound ?? double.NaN,
                        };
                        rows.Add(row);
                        AppendLog(log, row);
                        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                            $"[{modeName}] run {run + 1,2} {arm,-4} {result.Test.MethodName,-10} {AbRunner.Describe(result.Verdict),-12} ×{time?.Ratio ?? double.NaN:0.000} ({time?.Low ?? double.NaN:0.000}–{time?.High ?? double.NaN:0.000}; 90 % {time?.EquivalenceLow ?? double.NaN:0.000}–{time?.EquivalenceHigh ?? double.NaN:0.000}) pairs {result.ProcessPairs}{(result.Problems.Count > 0 ? " | " + result.Problems[0] : string.Empty)}"));
                    }

                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{modeName}] run {run + 1,2} {arm,-4} {seconds:0.0} s"));
                    if (run < storedRuns)
                    {
                        for (int b = 0; b < baselines.Length; b++)
                        {
                            BaselineJudgement judgement = baselines[b].Judge(StoredBodies[b].Measure(VerdictsBenchmark.Options, work));
                            var storedRow = new StoredRow(session, modeName, arm, StoredBodies[b].Name, judgement.Check.Outcome);
                            storedRows.Add(storedRow);
                            AppendLog(log, storedRow);
                            Console.WriteLine($"[{modeName}] run {run + 1,2} {arm,-4} stored {StoredBodies[b].Name}: {judgement.Check.Outcome}");
                        }
                    }
                }
            }

            // Written after each mode, so a run stopped early keeps the modes it finished.
            string[] done = accumulate ? [.. NoiseMode.Names.Where(m => rows.Any(r => r.Mode == m))] : [.. modes.TakeWhile(m => m != modeName), modeName];
            ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), fifty ? "ab-fifty" : "ab", fifty
                ? FiftySection(rows, runs, done, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args)
                : Section(rows, storedRows, runs, storedRuns, done, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args, accumulate));
        }

        Directory.Delete(folder, recursive: true);
        if (headAssembly != assembly)
            Directory.Delete(Path.GetDirectoryName(headAssembly)!, recursive: true);
        string[] all = accumulate ? [.. NoiseMode.Names.Where(m => rows.Any(r => r.Mode == m))] : modes;
        string section = fifty
            ? FiftySection(rows, runs, all, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args)
            : Section(rows, storedRows, runs, storedRuns, all, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args, accumulate);
        Console.WriteLine();
        Console.WriteLine(section);
        string path = ResultsWriter.DefaultPath();
        ResultsWriter.WriteSection(path, fifty ? "ab-fifty" : "ab", section);
        Console.WriteLine($"Written to {path}.");
        return 0;
    }

    // The stored-baseline counterparts of two of the bodies: the same chain and the same word count, measured in-process.
    private static VerdictBody[] StoredBodies { get; } =
    [
        new("Chain", "900 multiply-adds", static (options, work) => Perf.Measure(options, new ChainBody((int)Math.Round(900 * work)), ChainBody.Run), static (_, _) => throw new NotSupportedException()),
        new("Count", "Words.Count over 640 words", static (options, work) => Perf.Measure(options, WordsText(work), static t => Words.Count(t)), static (_, _) => throw new NotSupportedException()),
    ];

    private static string WordsText(double work) =>
        string.Join(' ', Enumerable.Range(0, (int)Math.Round(640 * work)).Select(static i => "word" + (i % 7 == 0 ? "s," : string.Empty)));

    private static string Section(List<Row> rows, List<StoredRow> stored, int runs, int storedRuns, string[] modes, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, string[] args, bool accumulate)
    {
        var text = new StringBuilder("## picollo ab: base against head in process pairs\n\n");
        text.Append(CultureInfo.InvariantCulture, $"Command: `dotnet bench/Picollo.Benchmarks/bin/Release/net10.0/Picollo.Benchmarks.dll ab {string.Join(' ', args)}` ({runs} runs per arm, stored-baseline verdicts in the first {storedRuns}; {total.TotalMinutes:0} min in all)\n\n");
        text.Append(CultureInfo.InvariantCulture, $"CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}; load average before {loadBefore}, after {loadAfter}\n\n");
        if (accumulate)
        {
            text.Append("Counted over every run in bench/ab-runs.jsonl (`--accumulate`), per session (runs of all arms and tests):\n\n");
            foreach (IGrouping<string, Row> group in rows.GroupBy(static r => r.Session))
                text.Append(CultureInfo.InvariantCulture, $"- {group.Key}: {string.Join(", ", NoiseMode.Names.Where(m => group.Any(r => r.Mode == m)).Select(m => $"{m} {RunsPerArm(group.Where(r => r.Mode == m))}"))} runs per arm\n");
            text.Append('\n');
        }

        text.Append("Each run is a whole `picollo ab` run after the builds (AbRunner): the three bodies' tests, 3 to 10 rounds, each round one process pair that runs every test still undecided in turn. Cells: regressed / runs; in brackets inconclusive. A/A unchanged: the runs whose verdict was unchanged (with the median bound it proved). Wall time per run of the three tests: median and max, and the runs within 90 s; per test: the run's time over its tests.\n\n");
        text.Append("| Mode | Test | A/A regressed | A/A unchanged (bound) | +5 % regressed | +10 % regressed | +20 % regressed | Median pairs | s per run: median / max (≤ 90 s) | s per test | Stored baseline A/A failed · +5/+10/+20 % failed | Goals |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (string mode in modes)
        {
            // One wall time per run: the tests of a run share it.
            double[] seconds = [.. rows.Where(r => r.Mode == mode).GroupBy(static r => (r.Session, r.Arm, r.Seconds)).Select(static g => g.Key.Seconds)];
            foreach (string test in rows.Where(r => r.Mode == mode).Select(static r => r.Test).Distinct())
            {
                List<Row> cell = [.. rows.Where(r => r.Mode == mode && r.Test == test)];
                int Regressed(string arm) => cell.Count(r => r.Arm == arm && r.Verdict == AbVerdict.Regressed);
                int Runs(string arm) => cell.Count(r => r.Arm == arm);
                string Count(string arm) => $"{Regressed(arm)}/{Runs(arm)} ({cell.Count(r => r.Arm == arm && r.Verdict == AbVerdict.Inconclusive)})";

                // The issue's goals: A/A never regressed, +10 % caught in ≥ 95 % and +5 % in ≥ 80 % of ≥ 20 runs.
                // And now: an unchanged test says "unchanged" in ≥ 90 % of A/A runs.
                int unchanged = cell.Count(r => r.Arm == "A/A" && r.Verdict == AbVerdict.Unchanged);
                bool met = Regressed("A/A") == 0 && Regressed("+10%") >= 0.95 * Runs("+10%") && Regressed("+5%") >= 0.80 * Runs("+5%")
                    && unchanged >= 0.9 * Runs("A/A");
                string unchangedCell = string.Create(CultureInfo.InvariantCulture,
                    $"{unchanged}/{Runs("A/A")} (±{Median(cell.Where(r => r.Arm == "A/A" && r.Verdict == AbVerdict.Unchanged).Select(static r => r.Bound)):0.0%})");
                double[] perTest = [.. cell.Where(static r => r.Tests > 0).Select(static r => r.Seconds / r.Tests)];
                string goals = !met ? "**not met**" : s_arms.Any(a => Runs(a.Name) < 20) ? "met so far (< 20 runs)" : "met";
                List<StoredRow> s = [.. stored.Where(r => r.Mode == mode && r.Body == test)];
                string storedCell = s.Count == 0 ? "–" : string.Join(" · ", s_arms.Select(a => $"{s.Count(r => r.Arm == a.Name && r.Outcome == BaselineOutcome.Fail)}/{s.Count(r => r.Arm == a.Name)}"));
                text.Append(CultureInfo.InvariantCulture,
                    $"| {mode} | {test} | {Count("A/A")} | {unchangedCell} | {Count("+5%")} | {Count("+10%")} | {Count("+20%")} | {Median(cell.Select(static r => (double)r.Pairs)):0} | {Median(seconds):0} / {seconds.DefaultIfEmpty(double.NaN).Max():0} ({seconds.Count(static x => x <= 90)}/{seconds.Length}) | {Median(perTest):0.0} | {storedCell} | {goals} |\n");
            }
        }

        List<string> problems = [.. rows.SelectMany(static r => r.Problems).Distinct().Take(5)];
        if (problems.Count > 0)
            text.Append("\nProblems seen: ").Append(string.Join("; ", problems)).Append('\n');
        return text.ToString();
    }

    // The 50-test project: per mode and arm, the verdicts over all tests and runs, and the wall time of a whole run.
    private static string FiftySection(List<Row> rows, int runs, string[] modes, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, string[] args)
    {
        var text = new StringBuilder("## picollo ab: a 50-test project\n\n");
        text.Append(CultureInfo.InvariantCulture, $"Command: `dotnet bench/Picollo.Benchmarks/bin/Release/net10.0/Picollo.Benchmarks.dll ab {string.Join(' ', args)}` ({runs} runs per arm; {total.TotalMinutes:0} min in all)\n\n");
        text.Append(CultureInfo.InvariantCulture, $"CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}; load average before {loadBefore}, after {loadAfter}\n\n");
        text.Append("`bench/Picollo.Benchmarks.AbBodies/FiftyTests.cs`: 50 `[PerfFact]` bodies (a chain, a word count, a sum, dictionary lookups, number formatting, ten sizes each, about 0.1 to 3 µs), the whole `picollo ab` run after the builds (AbRunner, default options). Cells count test verdicts over all runs.\n\n");
        text.Append("| Mode | Arm | Tests judged | Regressed | Unchanged (median bound) | Inconclusive | Improved | Other | Median pairs | Wall time per run, min: median / max | s per test |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (string mode in modes)
        {
            foreach (string arm in rows.Where(r => r.Mode == mode).Select(static r => r.Arm).Distinct())
            {
                List<Row> cell = [.. rows.Where(r => r.Mode == mode && r.Arm == arm)];
                double[] wall = [.. cell.GroupBy(static r => (r.Session, r.Seconds)).Select(static g => g.Key.Seconds / 60)];
                int Of(AbVerdict v) => cell.Count(r => r.Verdict == v);
                int other = cell.Count - Of(AbVerdict.Regressed) - Of(AbVerdict.Unchanged) - Of(AbVerdict.Inconclusive) - Of(AbVerdict.Improved);
                text.Append(CultureInfo.InvariantCulture,
                    $"| {mode} | {arm} | {cell.Count} | {Of(AbVerdict.Regressed)} | {Of(AbVerdict.Unchanged)} (±{Median(cell.Where(static r => r.Verdict == AbVerdict.Unchanged).Select(static r => r.Bound)):0.0%}) | {Of(AbVerdict.Inconclusive)} | {Of(AbVerdict.Improved)} | {other} | {Median(cell.Select(static r => (double)r.Pairs)):0} | {Median(wall):0.0} / {wall.DefaultIfEmpty(double.NaN).Max():0.0} | {Median(cell.Select(static r => r.Seconds / Math.Max(1, r.Tests))):0.0} |\n");
            }
        }

        List<string> problems = [.. rows.SelectMany(static r => r.Problems).Distinct().Take(5)];
        if (problems.Count > 0)
            text.Append("\nProblems seen: ").Append(string.Join("; ", problems)).Append('\n');
        return text.ToString();
    }

    private static int RunsPerArm(IEnumerable<Row> rows)
    {
        Row[] all = [.. rows];
        int cells = all.Select(static r => (r.Test, r.Arm)).Distinct().Count();
        return cells == 0 ? 0 : all.Length / cells;
    }

    // The run log: one JSON object per line, a test's verdict in one run ("kind": "ab") or a stored-baseline judgement ("stored").
    private static void AppendLog(string path, Row row) =>
        File.AppendAllText(path, JsonSerializer.Serialize(new LogLine("ab", row.Session, row.Mode, row.Arm, row.Test, row.Verdict.ToString(), row.Ratio, row.Pairs, row.Seconds, [.. row.Problems]) { Tests = row.Tests, Bound = row.Bound }, s_json) + "\n");

    private static void AppendLog(string path, StoredRow row) =>
        File.AppendAllText(path, JsonSerializer.Serialize(new LogLine("stored", row.Session, row.Mode, row.Arm, row.Body, row.Outcome.ToString(), double.NaN, 0, 0, []), s_json) + "\n");

    private static void ReadLog(string path, List<Row> rows, List<StoredRow> stored)
    {
        foreach (string line in File.ReadLines(path).Where(static l => l.Length > 0))
        {
            LogLine entry = JsonSerializer.Deserialize<LogLine>(line, s_json) ?? throw new InvalidDataException($"{path}: an empty line object");
            if (entry.Kind == "ab")
                rows.Add(new Row(entry.Session, entry.Mode, entry.Arm, entry.Test, Enum.Parse<AbVerdict>(entry.Outcome), entry.Ratio, entry.Pairs, entry.Seconds, entry.Problems) { Tests = entry.Tests, Bound = entry.Bound });
            else
                stored.Add(new StoredRow(entry.Session, entry.Mode, entry.Arm, entry.Test, Enum.Parse<BaselineOutcome>(entry.Outcome)));
        }
    }

    // The code measured, for the log: the repository's HEAD (and "+changes" when the tree differs from it).
    private static string Commit()
    {
        static string Git(string arguments)
        {
            var start = new ProcessStartInfo("git", arguments) { RedirectStandardOutput = true, WorkingDirectory = Path.GetDirectoryName(Path.GetDirectoryName(ResultsWriter.DefaultPath()))! };
            using Process git = Process.Start(start)!;
            string output = git.StandardOutput.ReadToEnd().Trim();
            git.WaitForExit();
            return git.ExitCode == 0 ? output : "?";
        }

        string head = Git("rev-parse --short HEAD");
        return Git("status --porcelain --untracked-files=no -- src bench/Picollo.Benchmarks bench/Picollo.Benchmarks.AbBodies").Length > 0 ? head + "+changes" : head;
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Where(double.IsFinite).Order()];
        return sorted.Length == 0 ? double.NaN : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private sealed record Row(string Session, string Mode, string Arm, string Test, AbVerdict Verdict, double Ratio, int Pairs, double Seconds, IReadOnlyList<string> Problems)
    {
        // The tests of the run (0 in log lines written before it was logged) and the bound an unchanged verdict proved.
        public int Tests { get; init; }

        public double Bound { get; init; } = double.NaN;
    }

    private sealed record StoredRow(string Session, string Mode, string Arm, string Body, BaselineOutcome Outcome);

    private sealed record LogLine(string Kind, string Session, string Mode, string Arm, string Test, string Outcome, double Ratio, int Pairs, double Seconds, string[] Problems)
    {
        public int Tests { get; init; }

        public double Bound { get; init; } = double.NaN;
    }

    // The chain as a state for Perf.Measure: each call continues from the last.
    private sealed class ChainBody(int steps)
    {
        private readonly int _steps = steps;
        private ulong _x = 1;

        public static ulong Run(ChainBody body)
        {
            ulong x = body._x;
            for (int i = 0; i < body._steps; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            body._x = x;
            return x;
        }
    }
}
