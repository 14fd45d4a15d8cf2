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
/// The verdict-quality experiment of issue 10: for each noise mode and body, a baseline recorded as update mode records
/// it, then <c>runs</c> measurements of each arm (unchanged, +10 %, +30 %, +100 % of its time; the allocating body's arms
/// add time without allocations, calibrated in each cell beside its noise, <see cref="AllocatingCalibration"/>), interleaved so drift hits every
/// arm alike, each judged by <see cref="BaselineJudge"/> exactly as <c>ShouldNotRegress</c> judges it (a time regression
/// fails only when a second measurement confirms it). Goals: 0 false failures unchanged, ≥ 95 % detected at +30 %, every
/// +100 % caught (issue 24: a gross regression is never hidden, whatever the noise).
/// </summary>
internal static class VerdictsBenchmark
{
    private const int DefaultRuns = 50;

    private const double DetectionGoal = 0.95;

    private static readonly string[] s_timeCounters = [CounterNames.Tsc, CounterNames.TaskClock];

    // Unchanged, a change near the threshold, the goal's +30 %, and a gross +100 % that must be caught in every mode (issue 24).
    private static readonly (string Name, double Work)[] s_arms = [("unchanged", 1.0), ("+10% work", 1.1), ("+30% work", 1.3), ("+100% work", 2.0)];

    private const int ThirtyPercent = 2;

    private const int Gross = 3;

    // The arm whose detection the issue's goal counts (+30 %): a pass of it is explained in the log like a gross one.
    private const int Goal = 2;

    /// <summary>The options of every measurement the experiment judges (shared with <c>paired</c>'s stored-baseline column).</summary>
    internal static PerfOptions Options { get; } = PerfOptions.Default with { Counters = [CounterNames.Tsc, CounterNames.TaskClock, CounterNames.AllocatedBytes, CounterNames.Gen0Collections, CounterNames.PageFaults] };

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : DefaultRuns;
        string[] modes = Option(args, "--modes") ?? NoiseMode.Names;
        string[] bodies = Option(args, "--bodies") ?? [.. VerdictBody.All.Select(static b => b.Name)];
        if (Environment.ProcessorCount < 2 || !CpuSpinner.PinCurrentThread(NoiseMode.MeasuredCpu))
        {
            Console.Error.WriteLine("verdicts needs CPUs 0 and 1: the measured thread runs on 0, the noise on 1 (and 0 for bursts).");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var total = Stopwatch.StartNew();
        PerfOptions options = Options;
        string folder = Directory.CreateTempSubdirectory("picollo-verdicts-").FullName;

        // The first measurement of a process also JIT-compiles the engine: not part of any arm.
        _ = VerdictBody.All[0].Measure(options, 1.0);

        var cells = new List<Cell>();
        foreach (string mode in modes)
        {
            foreach (VerdictBody body in VerdictBody.All.Where(b => bodies.Contains(b.Name)))
                cells.Add(RunCell(mode, body, options, runs, folder));
        }

        Directory.Delete(folder, recursive: true);
        string loadAfter = MachineInfo.ReadLoadAverage();
        bool goalsMet = cells.All(static c => c.GoalsMet);
        string section = Section(cells, runs, machine, loadBefore, loadAfter, total.Elapsed, goalsMet, args);
        Console.WriteLine();
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "verdicts", section);
        return goalsMet ? 0 : 1;
    }

    private static Cell RunCell(string modeName, VerdictBody body, PerfOptions options, int runs, string folder)
    {
        using NoiseMode mode = NoiseMode.Start(modeName);
        var watch = Stopwatch.StartNew();

        // The allocating body's arms add time alone, as many steps as make its time the arm's factor beside this cell's noise.
        if (body.Name == "allocating")
            AllocatingCalibration.ForCell(modeName, s_arms.Select(static a => a.Work));

        // As the adapters wait before a perf test measures (JitSettle): the calibration leaves methods to tier up.
        _ = JitSettle.Wait(CancellationToken.None);
        watch.Restart();

        var stored = StoredBaseline.Recorded(body, options, modeName, folder, timeAlone: true);
        BaselineRecord baseline = stored.Record;
        Console.WriteLine($"[{modeName} / {body.Name}] baseline in {watch.Elapsed.TotalSeconds:F1} s: {DescribeBaseline(baseline)}");
        Console.WriteLine($"    recording: {stored.Recording}");

        var cell = new Cell(modeName, body, baseline, runs);
        for (int run = 0; run < runs; run++)
        {
            for (int a = 0; a < s_arms.Length; a++)
            {
                watch.Restart();
                PerfResult result = body.MeasureTime(options, s_arms[a].Work);
                IReadOnlyList<CounterVerdict> single = stored.Single(result);
                BaselineJudgement judgement = stored.Judge(result);
                cell.Add(a, single, judgement, watch.Elapsed);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"[{modeName} / {body.Name}] run {run + 1,2} {s_arms[a].Name,-10} {watch.Elapsed.TotalSeconds:F2} s speed {result.Run.MachineSpeedNanoseconds:F0} branch {result.Run.BranchSpeedNanoseconds:F0}{Allocation(result)} other {result.Run.OtherProcessesCores:F2} ({RawChange(baseline, result, CounterNames.Tsc)}, {Events(result)}) | {string.Join(" | ", single.Where(v => s_timeCounters.Contains(v.Counter)).Select(Short))} | test: {judgement.Outcome}{Others(judgement)}"));

                // A false failure, or a gross or +30 % regression whose time passed: what the judgement measured and allowed, to
                // read why.
                bool failed = judgement.Outcome == BaselineOutcome.Fail;
                bool missed = a is Gross or Goal && !judgement.Check.Verdicts.Any(v => s_timeCounters.Contains(v.Counter) && v.IsRegression);
                if ((a == 0 && failed) || missed)
                    Console.WriteLine($"    why: {judgement.Remeasurement} | {string.Join(" | ", judgement.Check.Verdicts.Where(v => s_timeCounters.Contains(v.Counter)).Select(static v => v.Text))}");
            }
        }

        cell.NoiseWork = mode.Work;
        Console.WriteLine(cell.Summary());
        return cell;
    }

    // The allocation reference between the samples of an allocating body, in ns per allocation.
    private static string Allocation(PerfResult result) => double.IsNaN(result.Run.AllocationSpeedNanoseconds)
        ? string.Empty
        : string.Create(CultureInfo.InvariantCulture, $" alloc {result.Run.AllocationSpeedNanoseconds:F1}");

    // Every verdict of the judged run that is not a plain pass, beyond the time counters' (an exact counter's, an improvement).
    private static string Others(BaselineJudgement judgement) => string.Concat(judgement.Check.Verdicts
        .Where(v => v.Status != CounterVerdictStatus.Pass && (!s_timeCounters.Contains(v.Counter) || v.Status != CounterVerdictStatus.Regressed))
        .Select(v => " | " + v.Text));

    // The floor's raw change however the verdict went, whatever the conditions allowed.
    private static string RawChange(BaselineRecord baseline, PerfResult result, string counter) =>
        baseline.Find(counter) is { } b && result[counter].IsAvailable
            ? string.Create(CultureInfo.InvariantCulture, $"tsc P10 {((result[counter].GetPercentile(10) / b.PerOperation.P10) - 1) * 100:+0.0;-0.0}% raw")
            : "n/a";

    // What the runtime and the kernel did around the body: collections and page faults per 1,000 operations.
    private static string Events(PerfResult result) => string.Create(CultureInfo.InvariantCulture,
        $"gen0 {PerThousand(result, CounterNames.Gen0Collections):0.###}‰ pf {PerThousand(result, CounterNames.PageFaults):0.###}‰");

    private static double PerThousand(PerfResult result, string counter) =>
        result[counter].IsAvailable ? result[counter].Mean * 1000 : double.NaN;

    private static string Short(CounterVerdict v) => string.Create(CultureInfo.InvariantCulture,
        $"{v.Counter} {v.Statistic} {v.RelativeChange * 100:+0.0;-0.0}% z={v.EffectSize:0.0} {v.Status}");

    internal static string DescribeBaseline(BaselineRecord record) => string.Join(", ", s_timeCounters.Select(name => record.Find(name) is { } c
        ? string.Create(CultureInfo.InvariantCulture, $"{name} P10 {c.PerOperation.P10:#,0.##} (P50 {c.PerOperation.P50:#,0.##}) {c.Unit}/op, {c.OperationsPerSample:N0} ops/sample, recorded in {c.Recording?.Runs ?? 1} runs, drift {c.Recording?.Drift * 100 ?? 0:0.##}%, detects ≥ {c.Recording?.DetectableChange * 100 ?? double.NaN:0.#}%")
        : $"{name} unavailable")) + string.Create(CultureInfo.InvariantCulture, $"; speed {record.MachineSpeed:F0}, branch {record.BranchSpeed:F0}, allocation {record.AllocationSpeed:F1}");

    internal static string[]? Option(string[] args, string name)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? args[i + 1].Split(',', StringSplitOptions.RemoveEmptyEntries) : null;
    }

    private static string Section(List<Cell> cells, int runs, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, bool goalsMet, string[] args)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            ## Verdict quality: false failures and detections under noise

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- verdicts {string.Join(' ', args.DefaultIfEmpty(runs.ToString(CultureInfo.InvariantCulture)))}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC; load average before {loadBefore}, after {loadAfter}; {total.TotalMinutes:F0} min in all
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}
            - Options: `PerfOptions.Default` (1 s budget) with tsc, task-clock, allocated-bytes, gen0-collections, page-faults (each run line prints gen0 and page faults per 1,000 operations); measured thread on CPU {NoiseMode.MeasuredCpu}
            - Rules: `VerdictPolicy.Default`: time judged on P10 (the floor), regressed at ≥ {CounterVerdictRule.Time.MinRelativeChange:P0} and z ≥ 1.645 (95 % confidence), drift {CounterVerdictRule.Time.Drift:P1}; exact allocations
            - Each cell: a baseline recorded as update mode records it (measured until two runs agree), then {runs} runs of each arm, interleaved, each judged by `BaselineJudge` as `ShouldNotRegress` judges it; a time regression fails the test only when a second measurement confirms it

            Test-level outcome per arm (the injected change's time counters: detections; the unchanged arm: false failures of any counter):


            """);
        text.Append("| Mode | Body | Unchanged: false failures | +10 % tsc / task-clock | +30 % tsc / task-clock | +100 % tsc / task-clock | Judged with an allowance for the conditions: unchanged / +30 % / +100 % | Goals |\n|---|---|---:|---:|---:|---:|---:|---|\n");
        foreach (Cell cell in cells)
            text.Append(cell.Row()).Append('\n');

        text.Append("\nSingle measurements (before any confirmation) and what moved: time counters' P10 change min / median / max and median z per arm; the baseline:\n\n");
        foreach (Cell cell in cells)
            text.Append(cell.Detail()).Append('\n');

        text.Append(CultureInfo.InvariantCulture, $"Goals (0/{runs} false failures unchanged, ≥ {DetectionGoal:P0} detected at +30 % and {runs}/{runs} at +100 % on tsc and on task-clock, every cell): {(goalsMet ? "met" : "NOT met (see the rows marked so)")}.\n");
        return text.ToString();
    }

    /// <summary>One noise mode × body: the baseline, then per arm the single-measurement verdicts and the test-level outcomes.</summary>
    private sealed class Cell(string mode, VerdictBody body, BaselineRecord baseline, int runs)
    {
        private readonly List<(IReadOnlyList<CounterVerdict> Single, BaselineJudgement Judgement, TimeSpan Time)>[] _arms =
            [.. s_arms.Select(_ => new List<(IReadOnlyList<CounterVerdict>, BaselineJudgement, TimeSpan)>())];

        public long NoiseWork { get; set; }

        public bool GoalsMet => FalseFailures() == 0
            && s_timeCounters.All(c => Detected(ThirtyPercent, c) >= DetectionGoal * runs && Detected(Gross, c) == runs);

        public void Add(int arm, IReadOnlyList<CounterVerdict> single, BaselineJudgement judgement, TimeSpan time) => _arms[arm].Add((single, judgement, time));

        public string Row() => string.Create(CultureInfo.InvariantCulture,
            $"| {mode} | {body.Name} | {FalseFailures()}/{runs} | {Pair(1)} | {Pair(ThirtyPercent)} | {Pair(Gross)} | {Allowed(0)} / {Allowed(ThirtyPercent)} / {Allowed(Gross)} | {(GoalsMet ? "met" : "NOT met")} |");

        public string Summary() => $"[{mode} / {body.Name}] " + Row();

        public string Detail()
        {
            var text = new StringBuilder();
            text.Append(CultureInfo.InvariantCulture, $"**{mode} / {body.Name}** ({body.Description}); baseline: {DescribeBaseline(baseline)}; noise work {NoiseWork:N0}; median wall per judged run {Median([.. _arms.SelectMany(a => a).Select(r => r.Time.TotalSeconds)]):F2} s\n\n");
            text.Append("| Arm | tsc P10 change | tsc z | task-clock P10 change | task-clock z | single-measurement regressions tsc / task-clock |\n|---|---:|---:|---:|---:|---:|\n");
            for (int a = 0; a < s_arms.Length; a++)
            {
                text.Append(CultureInfo.InvariantCulture, $"| {s_arms[a].Name} ");
                foreach (string counter in s_timeCounters)
                {
                    // Inconclusive verdicts (another machine speed) compared nothing: left out here, counted in the summary.
                    double[] changes = [.. Verdicts(a, counter).Select(v => v.RelativeChange ?? double.NaN).Where(double.IsFinite).Order()];
                    double[] z = [.. Verdicts(a, counter).Select(v => v.EffectSize ?? double.NaN).Where(double.IsFinite).Order()];
                    if (changes.Length == 0)
                    {
                        text.Append("| n/a | n/a ");
                        continue;
                    }

                    text.Append(CultureInfo.InvariantCulture, $"| {changes[0] * 100:+0.0;-0.0}% / {Median(changes) * 100:+0.0;-0.0}% / {changes[^1] * 100:+0.0;-0.0}% | {Median(z):0.0} ");
                }

                text.Append(CultureInfo.InvariantCulture, $"| {Verdicts(a, s_timeCounters[0]).Count(v => v.IsRegression)} / {Verdicts(a, s_timeCounters[1]).Count(v => v.IsRegression)} |\n");
            }

            return text.ToString();
        }

        private IEnumerable<CounterVerdict> Verdicts(int arm, string counter) =>
            _arms[arm].Select(r => r.Single.FirstOrDefault(v => v.Counter == counter)).OfType<CounterVerdict>();

        // Judgements whose time verdict allowed for the conditions (a busy machine, another machine speed): not withheld any
        // more, but judged with a wider bound.
        private int Allowed(int arm) => _arms[arm].Count(static r => r.Judgement.Check.Verdicts.Any(static v => v.ConditionsChanged));

        private int FalseFailures() => _arms[0].Count(static r => r.Judgement.Outcome == BaselineOutcome.Fail);

        // A failing test whose final verdict of the counter is a regression: confirmed by a second measurement, or left as
        // measured when another counter (an exact one) failed the test at once.
        private int Detected(int arm, string counter) =>
            _arms[arm].Count(r => r.Judgement.Outcome == BaselineOutcome.Fail && r.Judgement.Check.Verdicts.Any(v => v.Counter == counter && v.IsRegression));

        private string Pair(int arm) => string.Create(CultureInfo.InvariantCulture, $"{Detected(arm, s_timeCounters[0])} / {Detected(arm, s_timeCounters[1])}");

        private static double Median(double[] sorted)
        {
            if (sorted.Length == 0)
                return double.NaN;
            Array.Sort(sorted);
            return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
        }
    }
}
