using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
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
/// </summary>
internal static class AbBenchmark
{
    private static readonly (string Name, double Work)[] s_arms = [("A/A", 1.0), ("+5%", 1.05), ("+10%", 1.10), ("+20%", 1.20)];

    // Variants of the statistic judged on the same pairs (all the pairs each run took): what the defaults were chosen from.
    private static readonly (string Name, AbOptions Options)[] s_variants =
    [
        ("all batches, all pairs", new AbOptions { FastStretch = double.PositiveInfinity, ContendedPair = double.PositiveInfinity }),
        ("fast stretch 10 %", new AbOptions { FastStretch = 0.10, ContendedPair = double.PositiveInfinity }),
        ("fast stretch 10 %, contended pairs > 25 % aside", new AbOptions { FastStretch = 0.10, ContendedPair = 0.25 }),
    ];

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : 10;
        string[] modes = [.. (VerdictsBenchmark.Option(args, "--modes") ?? NoiseMode.Names).Select(static m => m == "other-process" ? "process" : m)];
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

        AbTestAssembly bodies = AbDiscovery.FindTests("bench/Picollo.Benchmarks.AbBodies/Picollo.Benchmarks.AbBodies.csproj", assembly, null);
        var options = new AbOptions { Cpu = NoiseMode.MeasuredCpu };
        (string Name, double Work)[] arms = VerdictsBenchmark.Option(args, "--arms") is { } named ? [.. s_arms.Where(a => named.Contains(a.Name))] : s_arms;
        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var total = Stopwatch.StartNew();
        string folder = Directory.CreateTempSubdirectory("picollo-ab-bench-").FullName;
        var rows = new List<Row>();
        var storedRows = new List<StoredRow>();
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
                    AbTestAssembly headSide = bodies with { Environment = new Dictionary<string, string> { ["PICOLLO_BENCH_WORK"] = work.ToString("R", CultureInfo.InvariantCulture) } };
                    var watch = Stopwatch.StartNew();
                    IReadOnlyList<AbTestResult> results = AbRunner.Run([baseSide], [headSide], options, static _ => { }, CancellationToken.None);
                    double seconds = watch.Elapsed.TotalSeconds;
                    foreach (AbTestResult result in results)
                    {
                        AbTimeEstimate? time = result.Measurements.Count > 0 ? result.Measurements[0].Time : null;
                        AbVerdict[] variants = [.. s_variants.Select(v => Verdict(result, v.Options))];
                        rows.Add(new Row(modeName, arm, result.Test.MethodName, result.Verdict, time?.Ratio ?? double.NaN, result.ProcessPairs, seconds, variants, result.Problems));
                        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                            $"[{modeName}] run {run + 1,2} {arm,-4} {result.Test.MethodName,-10} {AbRunner.Describe(result.Verdict),-12} ×{time?.Ratio ?? double.NaN:0.000} ({time?.Low ?? double.NaN:0.000}–{time?.High ?? double.NaN:0.000}) pairs {result.ProcessPairs} | variants {string.Join(" / ", variants.Select(AbRunner.Describe))}{(result.Problems.Count > 0 ? " | " + result.Problems[0] : string.Empty)}"));
                    }

                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{modeName}] run {run + 1,2} {arm,-4} {seconds:0.0} s"));
                    if (run < storedRuns)
                    {
                        for (int b = 0; b < baselines.Length; b++)
                        {
                            BaselineJudgement judgement = baselines[b].Judge(StoredBodies[b].Measure(VerdictsBenchmark.Options, work));
                            storedRows.Add(new StoredRow(modeName, arm, StoredBodies[b].Name, judgement.Check.Outcome));
                            Console.WriteLine($"[{modeName}] run {run + 1,2} {arm,-4} stored {StoredBodies[b].Name}: {judgement.Check.Outcome}");
                        }
                    }
                }
            }

            // Written after each mode, so a run stopped early keeps the modes it finished.
            ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "ab", Section(rows, storedRows, runs, storedRuns, [.. modes.TakeWhile(m => m != modeName), modeName], machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args));
        }

        Directory.Delete(folder, recursive: true);
        string section = Section(rows, storedRows, runs, storedRuns, modes, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, args);
        Console.WriteLine();
        Console.WriteLine(section);
        string path = ResultsWriter.DefaultPath();
        ResultsWriter.WriteSection(path, "ab", section);
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

    // The verdict of a test judged again with a variant of the statistic, on all the pairs the run took.
    private static AbVerdict Verdict(AbTestResult result, AbOptions variant)
    {
        if (result.PairOutcomes.Count == 0)
            return result.Verdict;
        IReadOnlyList<AbMeasurement> measurements = AbStatistics.Judge(result.PairOutcomes, variant, final: true);
        return measurements.Count == 0 ? AbVerdict.NotJudged : measurements.Min(static m => m.Verdict);
    }

    private static string Section(List<Row> rows, List<StoredRow> stored, int runs, int storedRuns, string[] modes, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, string[] args)
    {
        var text = new StringBuilder("## picollo ab: base against head in process pairs\n\n");
        text.Append(CultureInfo.InvariantCulture, $"Command: `dotnet bench/Picollo.Benchmarks/bin/Release/net10.0/Picollo.Benchmarks.dll ab {string.Join(' ', args)}` ({runs} runs per arm, stored-baseline verdicts in the first {storedRuns}; {total.TotalMinutes:0} min in all)\n\n");
        text.Append(CultureInfo.InvariantCulture, $"CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}; load average before {loadBefore}, after {loadAfter}\n\n");
        text.Append("Each run is a whole `picollo ab` run after the builds (AbRunner): the three bodies' tests, each in 3 to 10 fresh process pairs. Cells: regressed / runs; in brackets inconclusive.\n\n");
        text.Append("| Mode | Test | A/A regressed | +5 % regressed | +10 % regressed | +20 % regressed | Median pairs | Median s per run (3 tests) | Stored baseline A/A failed · +5/+10/+20 % failed |\n|---|---|---|---|---|---|---|---|---|\n");
        foreach (string mode in modes)
        {
            foreach (string test in rows.Where(r => r.Mode == mode).Select(static r => r.Test).Distinct())
            {
                List<Row> cell = [.. rows.Where(r => r.Mode == mode && r.Test == test)];
                string Count(string arm)
                {
                    List<Row> a = [.. cell.Where(r => r.Arm == arm)];
                    return $"{a.Count(static r => r.Verdict == AbVerdict.Regressed)}/{a.Count} ({a.Count(static r => r.Verdict == AbVerdict.Inconclusive)})";
                }

                List<StoredRow> s = [.. stored.Where(r => r.Mode == mode && r.Body == test)];
                string storedCell = s.Count == 0 ? "–" : string.Join(" · ", s_arms.Select(a => $"{s.Count(r => r.Arm == a.Name && r.Outcome == BaselineOutcome.Fail)}/{s.Count(r => r.Arm == a.Name)}"));
                text.Append(CultureInfo.InvariantCulture,
                    $"| {mode} | {test} | {Count("A/A")} | {Count("+5%")} | {Count("+10%")} | {Count("+20%")} | {Median(cell.Select(static r => (double)r.Pairs)):0} | {Median(rows.Where(r => r.Mode == mode).Select(static r => r.Seconds)):0} | {storedCell} |\n");
            }
        }

        text.Append("\nThe same pairs judged by variants of the statistic (all the pairs each run took, final verdicts): regressed per arm, A/A · +5 · +10 · +20 %.\n\n| Mode | Test | ");
        text.Append(string.Join(" | ", s_variants.Select(static v => v.Name))).Append(" |\n|---|---|").Append(string.Concat(s_variants.Select(static _ => "---|"))).Append('\n');
        foreach (string mode in modes)
        {
            foreach (string test in rows.Where(r => r.Mode == mode).Select(static r => r.Test).Distinct())
            {
                List<Row> cell = [.. rows.Where(r => r.Mode == mode && r.Test == test)];
                text.Append(CultureInfo.InvariantCulture, $"| {mode} | {test} |");
                for (int v = 0; v < s_variants.Length; v++)
                    text.Append(' ').Append(string.Join(" · ", s_arms.Select(a => cell.Count(r => r.Arm == a.Name && r.Variants[v] == AbVerdict.Regressed).ToString(CultureInfo.InvariantCulture)))).Append(" |");
                text.Append('\n');
            }
        }

        List<string> problems = [.. rows.SelectMany(static r => r.Problems).Distinct().Take(5)];
        if (problems.Count > 0)
            text.Append("\nProblems seen: ").Append(string.Join("; ", problems)).Append('\n');
        return text.ToString();
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Where(double.IsFinite).Order()];
        return sorted.Length == 0 ? double.NaN : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private sealed record Row(string Mode, string Arm, string Test, AbVerdict Verdict, double Ratio, int Pairs, double Seconds, AbVerdict[] Variants, IReadOnlyList<string> Problems);

    private sealed record StoredRow(string Mode, string Arm, string Body, BaselineOutcome Outcome);

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
