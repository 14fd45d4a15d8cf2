using System.Diagnostics;
using System.Globalization;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// What deciding from evidence costs (docs/ARCHITECTURE.md, "Baselines and verdicts"): the judgement's stages are run
/// again over the evidence at every decision, so a judgement that takes n measurements decides n + 1 times over growing
/// evidence. A baseline is recorded from the verdict body, a 2× body is judged, and the decisions of a confirmed time
/// regression (the test's measurement, its confirmation, three fresh processes) are timed, against the reference of one
/// comparison of a measurement with the baseline and of one measurement of the body.
/// </summary>
internal static class DecideBenchmark
{
    public static int Run(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 20;
        string folder = Directory.CreateTempSubdirectory("picollo-decide-").FullName;
        try
        {
            var options = new BaselineStoreOptions
            {
                GetEnvironmentVariable = static _ => null,
                FreshProcessSpacing = TimeSpan.FromSeconds(2),
            };
            PerfResult recorded = Perf.Measure(PerfOptions.Default, VerdictWorkload.Baseline, VerdictWorkload.Run);
            string caller = Path.Combine(folder, "T.cs");
            _ = BaselineJudge.Judge(recorded, caller, "T", "M", null, options with { UpdateBaselines = true, RecordingProcesses = 0 });

            var doubled = new VerdictWorkload(VerdictWorkload.BaselineArrays, VerdictWorkload.BaselineIterations * 2);
            long measuring = Stopwatch.GetTimestamp();
            // Measurable again, as a test's measurement is, though deciding never measures.
            PerfResult[] slow =
            [
                .. Enumerable.Range(0, 5).Select(_ => Perf.Measure(PerfOptions.Default, doubled, VerdictWorkload.Run)
                    .WithRemeasure(static () => throw new InvalidOperationException("Deciding measured."))),
            ];
            double measurement = Stopwatch.GetElapsedTime(measuring).TotalMilliseconds / slow.Length;

            JudgementInputs inputs = JudgementInputs.Read(Path.Combine(folder, "T.M.perf.json"), null, options with { FreshProcesses = new Answered() });
            FreshProcessMeasurement Fresh(int i) => new([BaselineRecord.FromResult(slow[i]), BaselineRecord.FromResult(slow[i])], null);
            Evidence[] evidence =
            [
                Evidence.Test(slow[0]),
                new(EvidenceOrigin.Confirmation) { Measured = slow[1] },
                new(EvidenceOrigin.FreshConfirmation) { Fresh = Fresh(2) },
                new(EvidenceOrigin.FreshConfirmation) { Fresh = Fresh(3) },
                new(EvidenceOrigin.FreshConfirmation) { Fresh = Fresh(4) },
            ];

            BaselineRecord record = BaselineRecord.FromResult(slow[0]);
            double compare = Time(rounds, () => inputs.Store.Compare(inputs.BaselinePath, inputs.Machine, record));
            MachineInfo machine = MachineInfo.Current();
            Console.WriteLine($"machine: {machine.Cpu}, {machine.LogicalCores} cores; load average {MachineInfo.ReadLoadAverage()}");
            Console.WriteLine($"one measurement of the 2x body: {measurement:F1} ms; one comparison with the baseline: {compare:F2} ms");
            Console.WriteLine("| evidence | decides | one decision | the judgement's decisions so far | in comparisons |");
            Console.WriteLine("|---:|---|---:|---:|---:|");
            double total = 0;
            for (int n = 1; n <= evidence.Length; n++)
            {
                Evidence[] taken = evidence[..n];
                JudgementDecision decision = JudgementDecision.Decide(taken, inputs);
                double one = Time(rounds, () => JudgementDecision.Decide(taken, inputs));
                total += one;
                string decides = decision.Request is { } request ? request.Origin.ToString()
                    : decision.Concluded!.CheckResult.IsFailure ? "fail" : "pass";
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {n} | {decides} | {one:F2} ms | {total:F1} ms | {total / compare:F0}× |"));
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"deciding a confirmed regression: {total:F1} ms in all, {total / measurement:P1} of one measurement of the body"));
            return 0;
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static double Time(int rounds, Action action)
    {
        action();
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; i < rounds; i++)
            action();
        return Stopwatch.GetElapsedTime(start).TotalMilliseconds / rounds;
    }

    // The decisions are answered from the evidence; a fresh process is never started.
    private sealed class Answered : IFreshProcessMeasurer
    {
        public FreshProcessMeasurement Measure(string baselinePath, int measurements, CancellationToken cancellation) =>
            throw new InvalidOperationException("Deciding started a fresh process.");
    }
}
