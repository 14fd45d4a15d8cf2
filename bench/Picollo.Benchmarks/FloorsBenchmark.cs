using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// The low quantiles of repeated default measurements of one verdict body under one noise mode (issue 10): whether a
/// floor that moves between measurements moves as a whole (every low quantile) or because the share of fast samples
/// changes (P10 jumps while P1–P5 stay).
/// </summary>
internal static class FloorsBenchmark
{
    private static readonly double[] s_quantiles = [1, 2, 5, 10, 15, 25, 50];

    public static int Run(string[] args)
    {
        int runs = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int n) ? n : 40;
        string modeName = args.Length > 1 ? args[1] : "spinner";
        string bodyName = args.Length > 2 ? args[2] : "allocating";
        if (!CpuSpinner.PinCurrentThread(NoiseMode.MeasuredCpu))
            return 1;

        VerdictBody body = VerdictBody.All.Single(b => b.Name == bodyName);
        var options = PerfOptions.Default with { Counters = [CounterNames.Tsc, CounterNames.AllocatedBytes, CounterNames.Gen0Collections] };
        _ = body.Measure(options, 1.0);
        using NoiseMode mode = NoiseMode.Start(modeName);
        Console.WriteLine($"run  {string.Join(' ', s_quantiles.Select(q => $"P{q,-6}"))} alloc  speed  gen0‰");
        for (int run = 0; run < runs; run++)
        {
            PerfResult result = body.Measure(options, 1.0);
            var tsc = result[CounterNames.Tsc];
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{run + 1,3}  {string.Join(' ', s_quantiles.Select(q => $"{tsc.GetPercentile(q),7:F1}"))} {result.Run.AllocationSpeedNanoseconds,5:F1} {result.Run.MachineSpeedNanoseconds,6:F0} {result[CounterNames.Gen0Collections].Mean * 1000:F3} n={tsc.SampleCount}"));
        }

        return 0;
    }
}
