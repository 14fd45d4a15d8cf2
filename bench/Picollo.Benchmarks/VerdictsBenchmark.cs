using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Counters;
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

    private static readonly string[] s_counters = [CounterNames.Tsc, CounterNames.TaskClock, CounterNames.AllocatedBytes];

    private static readonly Arm[] s_arms =
    [
        new("unchanged", VerdictWorkload.Baseline, []),
        new("+10% allocations", new VerdictWorkload(VerdictWorkload.BaselineArrays + 1, VerdictWorkload.BaselineIterations), [CounterNames.AllocatedBytes]),
        new("+30% work", new VerdictWorkload(VerdictWorkload.BaselineArrays, VerdictWorkload.BaselineIterations * 13 / 10), [CounterNames.Tsc, CounterNames.TaskClock]),
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
        var confirmed = new int[s_arms.Length, s_counters.Length];
        int remeasured = 0;
        for (int a = 0; a < s_arms.Length; a++)
        {
            for (int c = 0; c < s_counters.Length; c++)
            {
                observations[a, c] = new List<CounterVerdict>(runs);
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
                    line.Append(CultureInfo.InvariantCulture, $" | {s_counters[c]} {counterVerdict.RelativeChange * 100:+0.00;-0.00}% d={counterVerdict.EffectSize:0.00} {counterVerdict.Status}");
                }

                // What a test sees through ShouldNotRegress: an exact regression fails at once; a statistical one
                // fails only when a second measurement of the same body regresses on the same counter.
                bool statistical = verdicts.Any(v => v.IsRegression && policy.GetRule(v.Counter, baseline[v.Counter].Kind).Mode == VerdictMode.Statistical);
                IReadOnlyList<CounterVerdict>? second = null;
                if (statistical)
                {
                    remeasured++;
                    second = BaselineComparer.Compare(file, fingerprint, BaselineRecord.FromResult(result.Remeasure()), policy);
                    line.Append(" | re-measured:");
                }

                for (int c = 0; c < s_counters.Length; c++)
                {
                    string name = s_counters[c];
                    if (!verdicts.Single(v => v.Counter == name).IsRegression)
                        continue;
                    bool exact = policy.GetRule(name, baseline[name].Kind).Mode == VerdictMode.Exact;
                    bool again = second?.Single(v => v.Counter == name).IsRegression ?? false;
                    if (exact || again)
                        confirmed[a, c]++;
                    if (!exact)
                        line.Append(CultureInfo.InvariantCulture, $" {name} {(again ? "confirmed" : "not confirmed")}");
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
                : string.Create(CultureInfo.InvariantCulture, $"{name}: {rule.Statistic} change ≥ {rule.MinRelativeChange:P0} at {rule.Confidence:P0} confidence");
        }));

        var table = new StringBuilder();
        var confirmedTable = new StringBuilder();
        foreach (StringBuilder t in new[] { table, confirmedTable })
            t.Append("| Arm | ").AppendJoin(" | ", s_counters).Append(" |\n|---|").AppendJoin(string.Empty, s_counters.Select(_ => "---:|")).Append('\n');
        bool goalsMet = true;
        for (int a = 0; a < s_arms.Length; a++)
        {
            table.Append("| ").Append(s_arms[a].Name);
            confirmedTable.Append("| ").Append(s_arms[a].Name);
            for (int c = 0; c < s_counters.Length; c++)
            {
                int regressed = observations[a, c].Count(v => v.Status == CounterVerdictStatus.Regressed);
                bool target = s_arms[a].Targets.Contains(s_counters[c]);
                // Only the unchanged arm can fail falsely: an injected change that also moves another counter (one more
                // allocation costs time too) is a real regression there, just not the one the arm is about.
                string role = target ? "detected" : a == 0 ? "false failures" : "also flagged";
                if (a == 0)
                    goalsMet &= confirmed[a, c] == 0;
                else if (target)
                    goalsMet &= confirmed[a, c] >= DetectionGoal * runs;
                table.Append(CultureInfo.InvariantCulture, $" | {regressed}/{runs} {role}");
                confirmedTable.Append(CultureInfo.InvariantCulture, $" | {confirmed[a, c]}/{runs} {role}");
            }

            table.Append(" |\n");
            confirmedTable.Append(" |\n");
        }

        var distributions = new StringBuilder();
        distributions.Append("| Arm | Counter | P50 change min / median / max | d min / median / max |\n|---|---|---:|---:|\n");
        for (int a = 0; a < s_arms.Length; a++)
        {
            for (int c = 0; c < s_counters.Length; c++)
            {
                double[] changes = [.. observations[a, c].Select(v => v.RelativeChange ?? double.NaN).Order()];
                double[] ds = [.. observations[a, c].Select(v => v.EffectSize ?? double.NaN).Order()];
                distributions.Append(CultureInfo.InvariantCulture,
                    $"| {s_arms[a].Name} | {s_counters[c]} | {changes[0] * 100:+0.00;-0.00}% / {Median(changes) * 100:+0.00;-0.00}% / {changes[^1] * 100:+0.00;-0.00}% | {ds[0]:0.00} / {Median(ds):0.00} / {ds[^1]:0.00} |\n");
            }
        }

        double[] walls = [.. wallSeconds.Order()];
        string summary = string.Create(CultureInfo.InvariantCulture,
            $"{runs} runs per arm ({runs * s_arms.Length} measurements + 1 discarded + 1 baseline) in {total.Elapsed.TotalSeconds:F0} s; wall per measurement {walls[0]:F2} / {Median(walls):F2} / {walls[^1]:F2} s (min / median / max); spinner did {spinner.Iterations:N0} blocks of 1,000 steps on CPU {SpinnerCpu}");
        string verdict = $"Goals, on the test-level verdicts ({remeasured} re-measurements) (0/{runs} false failures unchanged, ≥ {DetectionGoal:P0} detections of each injected change on its counters): {(goalsMet ? "met" : "NOT met")}";
        Console.WriteLine();
        Console.Write(table);
        Console.WriteLine();
        Console.Write(distributions);
        Console.WriteLine();
        Console.Write(confirmedTable);
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

            Test-level verdicts, as `ShouldNotRegress` gives them: an exact counter fails at once, a statistical one only when
            a second measurement of the same body regresses on the same counter ({remeasured} re-measurements in all). The
            injected change's own counters count detections; every flag in the unchanged arm is a false failure; "also
            flagged" is an injected change moving another counter for real (one more allocation also costs time):

            {confirmedTable}
            Single-measurement verdicts (`BaselineComparer` alone, before any confirmation):

            {table}
            Relative change of P50 and the robust Cohen's d (`HdrHistogramSummary.RobustCohensD`: median shift over the pooled
            IQR / 1.349, per operation) against the baseline:

            {distributions}
            {verdict}.
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "verdicts", section);
        return goalsMet ? 0 : 1;
    }

    private static PerfResult Measure(PerfOptions options, VerdictWorkload workload) => Perf.Measure(options, workload, VerdictWorkload.Run);

    private static string Describe(PerfResult result) => string.Create(CultureInfo.InvariantCulture,
        $"tsc {result.Tsc.P50:0.0} ticks/op, task-clock {result.TaskClock.P50:0.0} ns/op, allocated {result.AllocatedBytes.P50:0.#} B/op, {result.OperationsPerSample:N0} ops/sample, {result.SampleCount:N0} samples, {result.WallTime.TotalSeconds:F2} s");

    private static double Median(double[] sorted) => sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;

    private sealed record Arm(string Name, VerdictWorkload Workload, string[] Targets);
}
