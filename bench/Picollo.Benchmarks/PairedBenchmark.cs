using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// The paired experiment of issue 25: for each noise mode and verdict body, <c>runs</c> paired comparisons
/// (<see cref="Perf.Compare{TState, TResult}(PerfOptions, TState, Func{TState, TResult}, Func{TState, TResult})"/>) per arm,
/// A/A (the very same delegate on both sides) and the candidate made +2 %, +5 %, +10 %, +20 % slower, interleaved so drift
/// hits every arm alike; beside each comparison, today's stored-baseline verdict on the same change (a baseline recorded
/// once per cell, each run judged as <c>ShouldNotRegress</c> judges it, <see cref="StoredBaseline"/>). A comparison calls
/// the candidate slower when <see cref="PairedCounter.Change"/> of tsc is <see cref="PairedChange.Increased"/>: the whole
/// 99 % interval of candidate / reference above +1 %, from one measurement. Goals: A/A slower 0 of <c>runs</c> and +5 %
/// detected in ≥ 95 % of runs in every cell; the wall time of a comparison ≤ 2.5× one default measurement.
/// </summary>
internal static class PairedBenchmark
{
    private const int DefaultRuns = 50;

    private const double DetectionGoal = 0.95;

    private const double WallGoal = 2.5;

    /// <summary>Default measurements timed per cell for the wall-time ratio's denominator (their median).</summary>
    private const int DefaultMeasurements = 3;

    private static readonly (string Name, double Work)[] s_arms = [("A/A", 1.0), ("+2%", 1.02), ("+5%", 1.05), ("+10%", 1.10), ("+20%", 1.20)];

    private const int FivePercent = 2;

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : DefaultRuns;
        // "other-process" names the process mode as the issue words it.
        string[] modes = [.. (VerdictsBenchmark.Option(args, "--modes") ?? NoiseMode.Names).Select(static m => m == "other-process" ? "process" : m)];
        string[] bodies = VerdictsBenchmark.Option(args, "--bodies") ?? [.. VerdictBody.All.Select(static b => b.Name)];
        int storedRuns = VerdictsBenchmark.Option(args, "--stored-runs") is [{ } stored] && int.TryParse(stored, CultureInfo.InvariantCulture, out int k) ? Math.Min(k, runs) : runs;
        if (modes.FirstOrDefault(m => !NoiseMode.Names.Contains(m)) is { } unknownMode)
        {
            Console.Error.WriteLine($"Unknown noise mode '{unknownMode}': use {string.Join(", ", NoiseMode.Names)} (or other-process).");
            return 2;
        }

        if (bodies.FirstOrDefault(b => !VerdictBody.All.Any(v => v.Name == b)) is { } unknownBody)
        {
            Console.Error.WriteLine($"Unknown body '{unknownBody}': use {string.Join(", ", VerdictBody.All.Select(static b => b.Name))}.");
            return 2;
        }

        if (Environment.ProcessorCount < 2 || !CpuSpinner.PinCurrentThread(NoiseMode.MeasuredCpu))
        {
            Console.Error.WriteLine("paired needs CPUs 0 and 1: the measured thread runs on 0, the noise on 1 (and 0 for bursts).");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var total = Stopwatch.StartNew();
        string folder = Directory.CreateTempSubdirectory("picollo-paired-").FullName;

        // The first measurement and comparison of a process also JIT-compile the engines: not part of any arm.
        _ = VerdictBody.All[0].Measure(VerdictsBenchmark.Options, 1.0);
        _ = VerdictBody.All[0].Compare(PerfOptions.Default, 1.0);

        var cells = new List<Cell>();
        foreach (string mode in modes)
        {
            foreach (VerdictBody body in VerdictBody.All.Where(b => bodies.Contains(b.Name)))
                cells.Add(RunCell(mode, body, runs, storedRuns, folder));
        }

        Directory.Delete(folder, recursive: true);
        string loadAfter = MachineInfo.ReadLoadAverage();
        bool goalsMet = cells.All(static c => c.GoalsMet);
        string section = Section(cells, runs, machine, loadBefore, loadAfter, total.Elapsed, goalsMet, args);
        Console.WriteLine();
        Console.WriteLine(section);
        string path = ResultsWriter.DefaultPath();
        ResultsWriter.WriteSection(path, "paired", section);
        Console.WriteLine($"Written to {path}.");
        return goalsMet ? 0 : 1;
    }

    private static Cell RunCell(string modeName, VerdictBody body, int runs, int storedRuns, string folder)
    {
        using NoiseMode mode = NoiseMode.Start(modeName);
        string label = $"[{modeName} / {body.Name}]";

        // The yardstick of the wall-time goal: one default measurement of the body, as a perf test without a comparison takes.
        var watch = new Stopwatch();
        double[] defaults = new double[DefaultMeasurements];
        for (int i = 0; i < defaults.Length; i++)
        {
            watch.Restart();
            _ = body.Measure(PerfOptions.Default, 1.0);
            defaults[i] = watch.Elapsed.TotalSeconds;
        }

        double measurement = Median(defaults);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{label} default measurement {measurement:F2} s (median of {string.Join(", ", defaults.Select(static d => d.ToString("F2", CultureInfo.InvariantCulture)))})"));

        watch.Restart();
        var stored = StoredBaseline.Recorded(body, VerdictsBenchmark.Options, modeName, folder);
        Console.WriteLine($"{label} baseline in {watch.Elapsed.TotalSeconds:F1} s: {VerdictsBenchmark.DescribeBaseline(stored.Record)}");

        var cell = new Cell(modeName, body, runs, measurement, stored.Record);
        for (int run = 0; run < runs; run++)
        {
            for (int a = 0; a < s_arms.Length; a++)
            {
                watch.Restart();
                PerfComparison comparison = body.Compare(PerfOptions.Default, s_arms[a].Work);
                double compareSeconds = watch.Elapsed.TotalSeconds;
                var paired = new PairedRun(comparison.Tsc, compareSeconds, comparison.Reference.Run.OtherProcessesCores);

                // What a claim does with an undecided first measurement: measure both sides again, pooled, up to 3 in all.
                while (comparison.Tsc.Change == PairedChange.Inconclusive && comparison.Measurements < PairedCounterAssertions.MaxMeasurements)
                    comparison.MeasureAgain();
                paired = paired with { Pooled = comparison.Tsc.Change, Measurements = comparison.Measurements };

                // The stored judgement takes twice a comparison's time: --stored-runs judges only the first runs of each arm.
                StoredRun? baseline = null;
                if (run < storedRuns)
                {
                    watch.Restart();
                    BaselineJudgement judgement = stored.Judge(body.Measure(VerdictsBenchmark.Options, s_arms[a].Work));
                    baseline = new StoredRun(judgement, watch.Elapsed.TotalSeconds);
                }

                cell.Add(a, paired, baseline);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"{label} run {run + 1,2} {s_arms[a].Name,-4} | paired {paired.Seconds:F2} s ({paired.Seconds / measurement:F2}×) other {paired.OtherCores:F2}: {paired.Describe()}{(baseline is null ? string.Empty : $" | stored {baseline.Seconds:F2} s: {baseline.Describe()}")}"));
            }
        }

        cell.NoiseWork = mode.Work;
        Console.WriteLine(label + " " + cell.Row());
        return cell;
    }

    private static string Section(List<Cell> cells, int runs, MachineInfo machine, string loadBefore, string loadAfter, TimeSpan total, bool goalsMet, string[] args)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            ## Paired comparisons: A/A and small slowdowns under noise, beside the stored baseline

            Command: `dotnet bench/Picollo.Benchmarks/bin/Release/net10.0/Picollo.Benchmarks.dll paired {string.Join(' ', args.DefaultIfEmpty(runs.ToString(CultureInfo.InvariantCulture)))}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC; load average before {loadBefore}, after {loadAfter}; {total.TotalMinutes:F0} min in all
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores, TSC {MachineFingerprint.Current.TscMegahertz:N0} MHz; {machine.OperatingSystem}; {machine.Runtime}
            - Paired: `Perf.Compare(PerfOptions.Default, …)` (1 s budget, default counters); reference = the body unchanged, candidate = the same body with the arm's extra work (exact on average over a cycle of 10 calls); A/A = the very same delegate and state on both sides. "Slower" = `c.Tsc.Change == Increased`: the whole {PairedCounter.DefaultConfidence:P0} interval of candidate / reference above +{PairedCounter.PracticalChange:P0}, from one measurement (no measuring again). Measured thread on CPU {NoiseMode.MeasuredCpu}
            - Stored baseline: today's verdict on the same change, as the `verdicts` bench runs it: a baseline recorded once per cell as update mode records it, each run measured with `PerfOptions.Default` (tsc, task-clock, allocated-bytes, gen0-collections, page-faults) and judged by `BaselineJudge` as `ShouldNotRegress` judges it (regressed at ≥ {CounterVerdictRule.Time.MinRelativeChange:P0} on P10 and z ≥ 1.645, confirmed by a second measurement). "Slower" = the test fails with a tsc regression; A/A: the test fails on any counter
            - Wall time: each comparison's wall time over the median of {DefaultMeasurements} default `Perf.Measure` of the body timed at the start of the cell
            - Each cell: {runs} runs of each arm, interleaved (A/A, +2 %, +5 %, +10 %, +20 %), each a comparison, then (in the first runs, `--stored-runs`) a stored-baseline judgement

            Per cell, paired vs stored: runs judged slower per arm (A/A: false flags); the paired comparisons that were inconclusive per arm:


            """);
        text.Append("| Mode | Body | Paired A/A slower | Paired +2 / +5 / +10 / +20 % slower | Paired inconclusive A/A / +2 / +5 / +10 / +20 | Pooled A/A slower | Pooled +2 / +5 / +10 / +20 % slower | Wall ÷ default measurement (median / max) | Stored A/A fails | Stored +2 / +5 / +10 / +20 % slower | Goals |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        foreach (Cell cell in cells)
            text.Append(cell.Row()).Append('\n');

        text.Append("\nPer arm: the paired outcomes (slower / unchanged / inconclusive / faster), `ShouldNotBeSlower(maxChange: 0.01)` on that first measurement (pass / fail / would measure again), the intervals that exclude 1× (for A/A: a check of the interval's coverage, which should exclude 1× in about 1 % of runs), the tsc ratio (median, min–max), the 99 % interval's median width, Cohen's d_z and pairs (medians), the floors' ratio (an unpaired comparison of the same samples), and the stored baseline's tsc P10 change (median), its runs judged with an allowance for the conditions, and its test outcomes:\n\n");
        foreach (Cell cell in cells)
            text.Append(cell.Detail()).Append('\n');

        text.Append(CultureInfo.InvariantCulture, $"Goals (paired A/A slower 0/{runs} and +5 % slower in ≥ {DetectionGoal:P0} of runs, every cell, each run judged as a claim judges it: a first measurement that cannot decide is measured again, pooled, up to 3 in all (the Pooled columns; the Paired columns are the first measurement alone); median wall time ≤ {WallGoal}× a default measurement): {(goalsMet ? "met" : "NOT met (see the rows marked so)")}. +2 % is reported, not a goal; the stored baseline's columns are today's verdict for comparison, not goals.\n");
        return text.ToString();
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Where(double.IsFinite).Order()];
        if (sorted.Length == 0)
            return double.NaN;
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static string Percent(double ratio) => double.IsFinite(ratio)
        ? string.Create(CultureInfo.InvariantCulture, $"{(ratio - 1) * 100:+0.00;-0.00}%")
        : "n/a";

    /// <summary>One comparison's tsc: what it says, and what it cost.</summary>
    private sealed record PairedRun(PairedChange Change, double Ratio, double Low, double High, double Confidence, double CohensDz, int Pairs, double FloorRatio, double Seconds, double OtherCores)
    {
        /// <summary>The change after measuring again while undecided (up to 3 measurements pooled), as a claim does.</summary>
        public PairedChange Pooled { get; init; }

        /// <summary>The measurements pooled.</summary>
        public int Measurements { get; init; } = 1;

        public PairedRun(PairedCounter tsc, double seconds, double otherCores)
            : this(tsc.Change, tsc.Ratio, tsc.Low, tsc.High, tsc.Confidence, tsc.CohensDz, tsc.Pairs, tsc.FloorRatio, seconds, otherCores)
        {
        }

        /// <summary>What <c>ShouldNotBeSlower(maxChange: 0.01)</c> would do with this first measurement (its default 99 % interval).</summary>
        public string NotSlower => Confidence >= PairedCounter.DefaultConfidence - 1e-9 && High <= 1 + PairedCounter.PracticalChange
            ? "pass"
            : Confidence >= PairedCounter.DefaultConfidence - 1e-9 && Low > 1 + PairedCounter.PracticalChange ? "fail" : "again";

        public string Describe() => string.Create(CultureInfo.InvariantCulture,
            $"tsc {Ratio:0.0000}× ({Low:0.0000}–{High:0.0000}× at {Confidence * 100:0.#}%) d_z {CohensDz:0.00}, {Pairs:N0} pairs, floors {FloorRatio:0.0000}×: {PairedCounter.Words(Change, timeLike: true)}{(Measurements > 1 ? $"; pooled over {Measurements} measurements: {PairedCounter.Words(Pooled, timeLike: true)}" : string.Empty)}");
    }

    /// <summary>One stored-baseline judgement of the same change.</summary>
    private sealed record StoredRun(BaselineJudgement Judgement, double Seconds)
    {
        private CounterVerdict? Tsc => Judgement.Check.Verdicts.FirstOrDefault(static v => v.Counter == CounterNames.Tsc);

        public BaselineOutcome Outcome => Judgement.Outcome;

        public bool Slower => Outcome == BaselineOutcome.Fail && Tsc is { IsRegression: true };

        public bool Allowed => Tsc is { ConditionsChanged: true };

        public double TscChange => Tsc?.RelativeChange ?? double.NaN;

        public string Describe() => Tsc is { } v
            ? string.Create(CultureInfo.InvariantCulture, $"tsc {v.Statistic} {v.RelativeChange * 100:+0.0;-0.0}% z={v.EffectSize:0.0} {v.Status}{(v.ConditionsChanged ? " (allowance)" : string.Empty)} → test {Outcome}")
            : $"tsc not judged → test {Outcome}";
    }

    /// <summary>One noise mode × body: per arm, the paired comparisons and the stored-baseline judgements.</summary>
    private sealed class Cell(string mode, VerdictBody body, int runs, double measurement, BaselineRecord baseline)
    {
        private readonly List<PairedRun>[] _paired = [.. s_arms.Select(static _ => new List<PairedRun>())];
        private readonly List<StoredRun>[] _stored = [.. s_arms.Select(static _ => new List<StoredRun>())];

        public long NoiseWork { get; set; }

        // Judged as a claim judges: a first measurement that cannot decide is measured again (pooled), up to 3 in all.
        public bool GoalsMet => PooledSlower(0) == 0 && PooledSlower(FivePercent) >= DetectionGoal * runs && WallRatios().Median <= WallGoal;

        public void Add(int arm, PairedRun paired, StoredRun? stored)
        {
            _paired[arm].Add(paired);
            if (stored is not null)
                _stored[arm].Add(stored);
        }

        public string Row() => string.Create(CultureInfo.InvariantCulture,
            $"| {mode} | {body.Name} | {Slower(0)}/{runs} | {string.Join(" / ", Enumerable.Range(1, s_arms.Length - 1).Select(Slower))} | {string.Join(" / ", Enumerable.Range(0, s_arms.Length).Select(Inconclusive))} | {PooledSlower(0)}/{runs} | {string.Join(" / ", Enumerable.Range(1, s_arms.Length - 1).Select(PooledSlower))} | {WallRatios().Median:F2}× / {WallRatios().Max:F2}× | {_stored[0].Count(static r => r.Outcome == BaselineOutcome.Fail)}/{_stored[0].Count} | {string.Join(" / ", Enumerable.Range(1, s_arms.Length - 1).Select(a => _stored[a].Count(static r => r.Slower)))} of {_stored[0].Count} | {(GoalsMet ? "met" : "NOT met")} |");

        public string Detail()
        {
            var text = new StringBuilder();
            text.Append(CultureInfo.InvariantCulture, $"**{mode} / {body.Name}** ({body.Description}); default measurement {measurement:F2} s, comparison median {Median(_paired.SelectMany(static p => p).Select(static r => r.Seconds)):F2} s, stored judgement median {Median(_stored.SelectMany(static s => s).Select(static r => r.Seconds)):F2} s; median other processes' cores during comparisons {Median(_paired.SelectMany(static p => p).Select(static r => r.OtherCores)):F2}; noise work {NoiseWork:N0}; baseline: {VerdictsBenchmark.DescribeBaseline(baseline)}\n\n");
            text.Append("| Arm | Paired slower / unchanged / inconclusive / faster | ShouldNotBeSlower(0.01) pass / fail / again | Interval above / below 1× | tsc ratio median (min–max) | interval width | d_z | pairs | floors' ratio | Stored tsc P10 change | Stored allowance | Stored test outcomes |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
            for (int a = 0; a < s_arms.Length; a++)
            {
                List<PairedRun> p = _paired[a];
                List<StoredRun> s = _stored[a];
                double[] ratios = [.. p.Select(static r => r.Ratio).Where(double.IsFinite).Order()];
                string range = ratios.Length == 0 ? "n/a" : $"{Percent(Median(ratios))} ({Percent(ratios[0])} – {Percent(ratios[^1])})";
                string outcomes = string.Join(", ", s.GroupBy(static r => r.Outcome).OrderBy(static g => g.Key).Select(static g => $"{g.Key} {g.Count()}"));
                text.Append(CultureInfo.InvariantCulture,
                    $"| {s_arms[a].Name} | {Count(p, PairedChange.Increased)} / {Count(p, PairedChange.Unchanged)} / {Count(p, PairedChange.Inconclusive)} / {Count(p, PairedChange.Decreased)} | {p.Count(static r => r.NotSlower == "pass")} / {p.Count(static r => r.NotSlower == "fail")} / {p.Count(static r => r.NotSlower == "again")} | {p.Count(static r => r.Low > 1)} / {p.Count(static r => r.High < 1)} | {range} | {Median(p.Select(static r => r.High - r.Low)) * 100:0.00} pp | {Median(p.Select(static r => r.CohensDz)):0.00} | {Median(p.Select(static r => (double)r.Pairs)):N0} | {Percent(Median(p.Select(static r => r.FloorRatio)))} | {Median(s.Select(static r => r.TscChange)) * 100:+0.0;-0.0}% | {s.Count(static r => r.Allowed)} | {outcomes} |\n");
            }

            return text.ToString();
        }

        private static int Count(List<PairedRun> runs, PairedChange change) => runs.Count(r => r.Change == change);

        private int Slower(int arm) => Count(_paired[arm], PairedChange.Increased);

        private int Inconclusive(int arm) => Count(_paired[arm], PairedChange.Inconclusive);

        private int PooledSlower(int arm) => _paired[arm].Count(static r => (r.Measurements > 1 ? r.Pooled : r.Change) == PairedChange.Increased);

        private (double Median, double Max) WallRatios()
        {
            double[] ratios = [.. _paired.SelectMany(static p => p).Select(r => r.Seconds / measurement)];
            return ratios.Length == 0 ? (double.NaN, double.NaN) : (Median(ratios), ratios.Max());
        }
    }
}
