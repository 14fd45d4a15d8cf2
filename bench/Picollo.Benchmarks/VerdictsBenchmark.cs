using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// The verdict-quality experiment of issue 5: one baseline measurement of <see cref="VerdictWorkload"/>, then
/// <c>runs</c> measurements of each arm (unchanged, +10% allocations, +30% work), interleaved so drift hits every
/// arm alike, all compared with <see cref="VerdictPolicy.Default"/> while a spinner keeps the other CPU busy.
/// Goal: 0 false failures in the unchanged arm, ≥ 95% detections of each injected change.
/// </summary>
internal static class VerdictsBenchmark
{
    private const int DefaultRuns = 50;

    private const int MeasuredCpu = 0;

    private const int SpinnerCpu = 1;

    private const double DetectionGoal = 0.95;

    private static readonly string[] s_counters = [PerfCounterNames.Tsc, PerfCounterNames.TaskClock, PerfCounterNames.AllocatedBytes];

    private static readonly Arm[] s_arms =
    [
        new("unchanged", VerdictWorkload.Baseline, []),
        new("+10% allocations", new VerdictWorkload(VerdictWorkload.BaselineArrays + 1, VerdictWorkload.BaselineIterations), [PerfCounterNames.AllocatedBytes]),
        new("+30% work", new VerdictWorkload(VerdictWorkload.BaselineArrays, VerdictWorkload.BaselineIterations * 13 / 10), [PerfCounterNames.Tsc, PerfCounterNames.TaskClock]),
    ];

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : DefaultRuns;
        if (Environment.ProcessorCount < 2 || !CpuSpinner.PinCurrentThread(MeasuredCpu))
        {
            Console.Error.WriteLine("verdicts needs CPUs 0 and 1: the measured thread runs on 0, the spinner on 1.");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string load = MachineInfo.ReadLoadAverage();
        var options = PerfOptions.Default with { Counters = [.. s_counters] };
        MachineFingerprint fingerprint = MachineFingerprint.Current;
        VerdictPolicy policy = VerdictPolicy.Default;
        var total = Stopwatch.StartNew();

        var spinner = new CpuSpinner(SpinnerCpu);

        // The first measurement in a process also JIT-compiles the engine: discarded, so the baseline is a steady one.
        _ = Measure(options, VerdictWorkload.Baseline);
        PerfResult baseline = Measure(options, VerdictWorkload.Baseline);
        var file = new BaselineFile([new BaselineEntry(fingerprint, BaselineRecord.FromResult(baseline))]);
        Console.WriteLine($"baseline: {Describe(baseline)}");

        var observations = new List<CounterVerdict>[s_arms.Length, s_counters.Length];
        var robustEffects = new List<double>[s_arms.Length, s_counters.Length];
        for (int a = 0; a < s_arms.Length; a++)
        {
            for (int c = 0; c < s_counters.Length; c++)
            {
                observations[a, c] = new List<CounterVerdict>(runs);
                robustEffects[a, c] = new List<double>(runs);
            }
        }

        var wallSeconds = new List<double>(runs * s_arms.Length);
        for (int run = 0; run < runs; run++)
        {
            for (int a = 0; a < s_arms.Length; a++)
            {
                PerfResult result = Measure(options, s_arms[a].Workload);
                wallSeconds.Add(result.WallTime.TotalSeconds);
                IReadOnlyList<CounterVerdict> verdicts = BaselineComparer.Compare(file, fingerprint, BaselineRecord.FromResult(result), policy);
                var line = new StringBuilder(string.Create(CultureInfo.InvariantCulture, $"run {run + 1,2} {s_arms[a].Name,-17} {result.WallTime.TotalSeconds:F2} s"));
                for (int c = 0; c < s_counters.Length; c++)
                {
                    CounterVerdict counterVerdict = verdicts.Single(v => v.Counter == s_counters[c]);
                    observations[a, c].Add(counterVerdict);
                    double robust = RobustEffect(baseline[s_counters[c]], result[s_counters[c]]);
                    robustEffects[a, c].Add(robust);
                    line.Append(CultureInfo.InvariantCulture, $" | {s_counters[c]} {counterVerdict.RelativeChange * 100:+0.00;-0.00}% d={counterVerdict.CohensD:0.00} rd={robust:0.00} {counterVerdict.Status}");
                }

                Console.WriteLine(line);
            }
        }

        spinner.Dispose();
        string rules = string.Join("; ", s_counters.Select(name =>
        {
            CounterVerdictRule rule = policy.GetRule(name, baseline[name].Kind);
            return rule.Mode == VerdictMode.Exact
                ? $"{name}: exact {rule.Statistic}"
                : string.Create(CultureInfo.InvariantCulture, $"{name}: {rule.Statistic} change ≥ {rule.MinRelativeChange:P0} and d ≥ {rule.MinCohensD:0.0#}");
        }));

        var table = new StringBuilder();
        table.Append("| Arm | ").AppendJoin(" | ", s_counters).Append(" |\n|---|").AppendJoin(string.Empty, s_counters.Select(_ => "---:|")).Append('\n');
        bool goalsMet = true;
        for (int a = 0; a < s_arms.Length; a++)
        {
            table.Append("| ").Append(s_arms[a].Name);
            for (int c = 0; c < s_counters.Length; c++)
            {
                int regressed = observations[a, c].Count(v => v.Status == CounterVerdictStatus.Regressed);
                bool target = s_arms[a].Targets.Contains(s_counters[c]);
                string role = target ? "detected" : "false failures";
                if (a == 0)
                    goalsMet &= regressed == 0;
                else if (target)
                    goalsMet &= regressed >= DetectionGoal * runs;
                table.Append(CultureInfo.InvariantCulture, $" | {regressed}/{runs} {role}");
            }

            table.Append(" |\n");
        }

        // Diagnostic: the statistical rules with the robust d in place of Cohen's d (exact rules are left out).
        var robustTable = new StringBuilder();
        robustTable.Append("| Arm | ").AppendJoin(" | ", s_counters).Append(" |\n|---|").AppendJoin(string.Empty, s_counters.Select(_ => "---:|")).Append('\n');
        for (int a = 0; a < s_arms.Length; a++)
        {
            robustTable.Append("| ").Append(s_arms[a].Name);
            for (int c = 0; c < s_counters.Length; c++)
            {
                CounterVerdictRule rule = policy.GetRule(s_counters[c], baseline[s_counters[c]].Kind);
                string cell = rule.Mode == VerdictMode.Exact
                    ? "(exact)"
                    : string.Create(CultureInfo.InvariantCulture, $"{observations[a, c].Where((v, i) => v.RelativeChange >= rule.MinRelativeChange && robustEffects[a, c][i] >= rule.MinCohensD).Count()}/{runs}");
                robustTable.Append(" | ").Append(cell);
            }

            robustTable.Append(" |\n");
        }

        var distributions = new StringBuilder();
        distributions.Append("| Arm | Counter | P50 change min / median / max | d min / median / max | robust d min / median / max |\n|---|---|---:|---:|---:|\n");
        for (int a = 0; a < s_arms.Length; a++)
        {
            for (int c = 0; c < s_counters.Length; c++)
            {
                double[] changes = [.. observations[a, c].Select(v => v.RelativeChange ?? double.NaN).Order()];
                double[] ds = [.. observations[a, c].Select(v => v.CohensD ?? double.NaN).Order()];
                double[] rds = [.. robustEffects[a, c].Order()];
                distributions.Append(CultureInfo.InvariantCulture,
                    $"| {s_arms[a].Name} | {s_counters[c]} | {changes[0] * 100:+0.00;-0.00}% / {Median(changes) * 100:+0.00;-0.00}% / {changes[^1] * 100:+0.00;-0.00}% | {ds[0]:0.00} / {Median(ds):0.00} / {ds[^1]:0.00} | {rds[0]:0.00} / {Median(rds):0.00} / {rds[^1]:0.00} |\n");
            }
        }

        double[] walls = [.. wallSeconds.Order()];
        string summary = string.Create(CultureInfo.InvariantCulture,
            $"{runs} runs per arm ({runs * s_arms.Length} measurements + 1 discarded + 1 baseline) in {total.Elapsed.TotalSeconds:F0} s; wall per measurement {walls[0]:F2} / {Median(walls):F2} / {walls[^1]:F2} s (min / median / max); spinner did {spinner.Iterations:N0} blocks of 1,000 steps on CPU {SpinnerCpu}");
        string verdict = $"Goals (0/{runs} false failures unchanged, ≥ {DetectionGoal:P0} detections of each injected change on its counters): {(goalsMet ? "met" : "NOT met")}";
        Console.WriteLine();
        Console.Write(table);
        Console.WriteLine();
        Console.Write(distributions);
        Console.WriteLine();
        Console.Write(robustTable);
        Console.WriteLine();
        Console.WriteLine(summary);
        Console.WriteLine(verdict);

        string section = string.Create(CultureInfo.InvariantCulture,
            $"""
            ## Verdict quality: false failures and detections

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- verdicts {runs}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - Body: `VerdictWorkload` ({VerdictWorkload.BaselineArrays} × `byte[8]` kept reachable, then a dependent chain of {VerdictWorkload.BaselineIterations} multiply-adds), baseline P50 {Describe(baseline)}
            - Options: `PerfOptions.Default` with counters {string.Join(", ", s_counters)}; the measured thread on CPU {MeasuredCpu}, a spinner thread pinned to CPU {SpinnerCpu} (dependent arithmetic, running throughout, baseline included)
            - Rules (`VerdictPolicy.Default`): {rules}
            - {summary}

            Regressed verdicts per arm and counter (the injected change's own counters count detections, the others false failures):

            {table}
            Relative change of P50, Cohen's d (`BaselineComparer`: means and standard deviations of the per-sample values)
            and, as a diagnostic only, a robust d = (P50 − P50 baseline) / pooled (P75 − P25) / 1.349, against the baseline:

            {distributions}
            Diagnostic only (no verdict uses it): Regressed counts if the same rules used the robust d instead of Cohen's d:

            {robustTable}
            {verdict}.
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "verdicts", section);
        return goalsMet ? 0 : 1;
    }

    private static PerfResult Measure(PerfOptions options, VerdictWorkload workload) => Perf.Measure(options, workload, VerdictWorkload.Run);

    private static string Describe(PerfResult result) => string.Create(CultureInfo.InvariantCulture,
        $"tsc {result.Tsc.P50:0.0} ticks/op, task-clock {result.TaskClock.P50:0.0} ns/op, allocated {result.AllocatedBytes.P50:0.#} B/op, {result.OperationsPerSample:N0} ops/sample, {result.SampleCount:N0} samples, {result.WallTime.TotalSeconds:F2} s");

    // Diagnostic, not used by any verdict: the effect size with a spread that a few GC-hit samples cannot inflate
    // (the interquartile range of a normal distribution is 1.349 σ), floored at the histogram's resolution like CohensD.
    private static double RobustEffect(CounterResult before, CounterResult after)
    {
        double spread = ((before.GetPercentile(75) - before.GetPercentile(25)) + (after.GetPercentile(75) - after.GetPercentile(25))) / 2 / 1.349;
        double floor = PerfOptions.Default.RelativeError * Math.Max(before.P50, after.P50);
        return (after.P50 - before.P50) / Math.Max(spread, floor);
    }

    private static double Median(double[] sorted) => sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;

    private sealed record Arm(string Name, VerdictWorkload Workload, string[] Targets);
}
