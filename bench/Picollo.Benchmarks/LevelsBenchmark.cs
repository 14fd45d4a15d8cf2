using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Testing;

namespace Picollo.Benchmarks;

/// <summary>
/// The newcomer's experiment of issue 24: per noise mode and body, a baseline recorded once as a user records it
/// (<c>PICOLLO_UPDATE_BASELINES=1</c>: a steady recording, the machine's fast level, three fresh processes), then every
/// arm (unchanged, 2× and 3× work) judged in fresh processes, each as a perf test judges it (a regression confirmed by a
/// second measurement and by a fresh process). Every process is a new <c>dotnet</c> process, so per-process levels count.
/// Goals: 0 false failures; 2× and 3× caught in every process, or passed with a verdict that says the baseline cannot see
/// a change that size (its "detects ≥" above the change); never a silent pass.
/// </summary>
internal static class LevelsBenchmark
{
    private const int DefaultProcesses = 10;

    private static readonly string[] s_modes = ["idle", "process"];

    private static readonly double[] s_arms = [1.0, 2.0, 3.0];

    public static int Run(string[] args)
    {
        int processes = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : DefaultProcesses;
        string[] modes = Option(args, "--modes") ?? s_modes;
        string[] bodies = Option(args, "--bodies") ?? [.. LevelsBody.All.Select(static b => b.Name)];
        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var total = Stopwatch.StartNew();
        var cells = new List<Cell>();
        foreach (string mode in modes)
        {
            using OtherProcessNoise? noise = mode switch
            {
                "idle" => null,
                "process" => OtherProcessNoise.Start(),
                _ => throw new ArgumentException($"Unknown levels mode '{mode}': use {string.Join(", ", s_modes)}.", nameof(args)),
            };
            foreach (string body in bodies)
                cells.Add(RunCell(mode, body, processes));
        }

        bool goalsMet = cells.All(static c => c.GoalsMet);
        string section = Section(cells, processes, machine, loadBefore, MachineInfo.ReadLoadAverage(), total.Elapsed, goalsMet, args);
        Console.WriteLine();
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "levels", section);
        return goalsMet ? 0 : 1;
    }

    /// <summary>
    /// The child's side: measures one body at one work factor and judges it against the baseline in <c>folder</c>,
    /// recording it when asked, with fresh processes of this same command; prints one result line. Started by the
    /// recording or a confirmation as a worker, the judgement measures and reports instead.
    /// </summary>
    public static int RunChild(string[] args)
    {
        string body = args[1];
        double work = double.Parse(args[2], CultureInfo.InvariantCulture);
        string folder = args[3];
        bool update = args[4] == "1";
        LevelsBody levels = LevelsBody.All.Single(b => b.Name == body);
        PerfResult result = levels.Measure(PerfOptions.Default, work);
        var worker = new PerfTestWorker(DotnetHost.Path, [typeof(LevelsBenchmark).Assembly.Location, "levels-child", body, args[2], folder, "0"], new Dictionary<string, string>(), $"levels {body}");
        var options = new BaselineStoreOptions
        {
            UpdateBaselines = update,
            FreshProcesses = new FreshProcessRunner(worker, PerfOptions.Default.TimeBudget),
        };
        BaselineJudgement judgement = BaselineJudge.Judge(result, Path.Combine(folder, "LevelsBench.cs"), "LevelsBench", body, null, options);
        if (judgement.Outcome == BaselineOutcome.NotJudged)
            return 0;

        CounterVerdict? tsc = judgement.Check.Verdicts.FirstOrDefault(static v => v.Counter == CounterNames.Tsc);
        string line = string.Join('\t',
            "RESULT",
            judgement.Outcome.ToString(),
            tsc?.Status.ToString() ?? "none",
            (tsc?.RelativeChange ?? double.NaN).ToString("R", CultureInfo.InvariantCulture),
            (tsc?.DetectableChange ?? double.NaN).ToString("R", CultureInfo.InvariantCulture),
            result.Run.OtherProcessesCores.ToString("0.00", CultureInfo.InvariantCulture),
            string.Create(CultureInfo.InvariantCulture, $"{result.Tsc.GetPercentile(10):0.#} (branchy reference {result.Run.BranchSpeedNanoseconds:0})"),
            (tsc?.Text ?? "no tsc verdict").Replace('\t', ' '),
            string.Join(" | ", [.. judgement.Notices, .. judgement.Remeasurement is { } again ? [again] : Array.Empty<string>()])
                .Replace('\t', ' ').Replace('\n', ' '));
        Console.WriteLine(line);
        return 0;
    }

    private static Cell RunCell(string mode, string body, int processes)
    {
        string folder = Directory.CreateTempSubdirectory("picollo-levels-").FullName;
        try
        {
            var watch = Stopwatch.StartNew();
            ChildResult recorded = RunChildProcess(body, 1.0, folder, update: true);
            BaselineRecord baseline = BaselineStore.Read(Path.Combine(folder, $"LevelsBench.{body}.perf.json"))!.Entries.Single().Record;
            BaselineCounter tsc = baseline.Find(CounterNames.Tsc)!;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"[{mode} / {body}] recorded in {watch.Elapsed.TotalSeconds:F0} s: tsc P10 {tsc.PerOperation.P10:#,0.#} ticks/op, {tsc.Recording?.Processes} processes, spread {tsc.Recording?.Spread:0.###}×, detects ≥ {tsc.Recording?.DetectableChange * 100:0.#}% ({recorded.Notices})"));
            var cell = new Cell(mode, body, tsc);
            for (int p = 0; p < processes; p++)
            {
                foreach (double work in s_arms)
                {
                    watch.Restart();
                    ChildResult result = RunChildProcess(body, work, folder, update: false);
                    cell.Add(work, result);
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                        $"[{mode} / {body}] process {p + 1,2} {work}× {watch.Elapsed.TotalSeconds:F1} s other {result.OtherCores} first P10 {result.FirstP10}: {result.Outcome} {result.Classify(work)} | {result.Text}"));
                    // What a judgement that did not end as it should measured and noticed, for the notes.
                    if (result.Classify(work) is not ("ok" or "caught"))
                        Console.WriteLine($"    why: {result.Notices}");
                }
            }

            return cell;
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static ChildResult RunChildProcess(string body, double work, string folder, bool update)
    {
        var start = new ProcessStartInfo(DotnetHost.Path) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in new[] { typeof(LevelsBenchmark).Assembly.Location, "levels-child", body, work.ToString("R", CultureInfo.InvariantCulture), folder, update ? "1" : "0" })
            start.ArgumentList.Add(argument);
        using Process child = Process.Start(start)!;
        Task<string> errors = child.StandardError.ReadToEndAsync();
        string output = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        string? line = output.Split('\n').FirstOrDefault(static l => l.StartsWith("RESULT\t", StringComparison.Ordinal));
        if (child.ExitCode != 0 || line is null)
            throw new InvalidOperationException($"levels-child {body} {work} exited with {child.ExitCode}: {output} {errors.Result}");
        string[] f = line.Split('\t');
        return new ChildResult(f[1], f[2], double.Parse(f[3], CultureInfo.InvariantCulture), double.Parse(f[4], CultureInfo.InvariantCulture), f[5], f[6], f[7], f[8]);
    }

    private static string[]? Option(string[] args, string name)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? args[i + 1].Split(',', StringSplitOptions.RemoveEmptyEntries) : null;
    }

    private static string Section(List<Cell> cells, int processes, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, bool goalsMet, string[] args)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            ## Levels: a newcomer's baseline judged in fresh processes

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- levels {string.Join(' ', args.DefaultIfEmpty(processes.ToString(CultureInfo.InvariantCulture)))}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC; load average before {loadBefore}, after {loadAfter}; {total.TotalMinutes:F0} min in all
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}
            - Each cell: one fresh process records the baseline as `PICOLLO_UPDATE_BASELINES=1` does (a steady recording at the machine's fast level, then 3 fresh processes 5 s apart, 2 measurements each: the spread of levels); then {processes} fresh processes per arm judge it as a perf test does (`PerfOptions.Default`; a time regression confirmed by a second measurement and up to three fresh processes 5 s apart)
            - Modes: `idle` (nothing started by the bench), `process` (another process, a spinning `sh -c` loop, unpinned, busy for the whole cell)

            | Mode | Body | Recorded: tsc P10, processes, spread, detects | Unchanged: false failures | 2×: caught / says it cannot see / silent pass | 3×: caught / says / silent | Judged with an allowance for the conditions (all arms) | Goals |
            |---|---|---|---:|---:|---:|---:|---|

            """);
        foreach (Cell cell in cells)
            text.Append(cell.Row()).Append('\n');
        text.Append('\n');
        foreach (Cell cell in cells)
            text.Append(cell.Detail()).Append('\n');
        text.Append(CultureInfo.InvariantCulture, $"Goals (0 false failures; 2× and 3× caught or passed saying the baseline cannot see them; no silent pass): {(goalsMet ? "met" : "NOT met (see the rows marked so)")}.\n");
        return text.ToString();
    }

    /// <summary>What one judging process printed.</summary>
    private sealed record ChildResult(string Outcome, string Status, double Change, double Detects, string OtherCores, string FirstP10, string Text, string Notices)
    {
        public bool AllowedForConditions => Text.Contains("other processes used", StringComparison.Ordinal) || Text.Contains("than at recording", StringComparison.Ordinal);

        // A regression arm's outcome: caught, a pass whose verdict says it cannot see a change this size, or a silent pass.
        public string Classify(double work) =>
            work == 1.0 ? (Outcome == "Fail" ? "FALSE FAILURE" : "ok")
            : Outcome == "Fail" && Status == "Regressed" ? "caught"
            : Detects >= work - 1 ? "says it cannot see"
            : "SILENT PASS";
    }

    /// <summary>One mode × body: the recorded baseline and every judging process's result.</summary>
    private sealed class Cell(string mode, string body, BaselineCounter recorded)
    {
        private readonly Dictionary<double, List<ChildResult>> _arms = s_arms.ToDictionary(static w => w, static _ => new List<ChildResult>());

        public bool GoalsMet => Count(1.0, "FALSE FAILURE") == 0 && s_arms.Where(static w => w > 1).All(w => Count(w, "SILENT PASS") == 0);

        public void Add(double work, ChildResult result) => _arms[work].Add(result);

        public string Row() => string.Create(CultureInfo.InvariantCulture,
            $"| {mode} | {body} | {recorded.PerOperation.P10:#,0.#} ticks, {recorded.Recording?.Processes}, {recorded.Recording?.Spread:0.###}×, {recorded.Recording?.DetectableChange * 100:0}% | {Count(1.0, "FALSE FAILURE")}/{_arms[1.0].Count} | {Arm(2.0)} | {Arm(3.0)} | {_arms.Values.Sum(static a => a.Count(static r => r.AllowedForConditions))} | {(GoalsMet ? "met" : "NOT met")} |");

        public string Detail()
        {
            var text = new StringBuilder();
            text.Append(CultureInfo.InvariantCulture, $"**{mode} / {body}** ({LevelsBody.All.Single(b => b.Name == body).Description}): tsc P10 change per process, unchanged / 2× / 3×:\n\n");
            foreach (double work in s_arms)
            {
                string changes = string.Join(", ", _arms[work].Select(static r => double.IsFinite(r.Change) ? (r.Change * 100).ToString("+0;-0", CultureInfo.InvariantCulture) + "%" : "n/a"));
                text.Append(CultureInfo.InvariantCulture, $"- {work}×: {changes}\n");
            }

            return text.ToString();
        }

        private int Count(double work, string outcome) => _arms[work].Count(r => r.Classify(work) == outcome);

        private string Arm(double work) => string.Create(CultureInfo.InvariantCulture,
            $"{Count(work, "caught")} / {Count(work, "says it cannot see")} / {Count(work, "SILENT PASS")}");
    }
}
