using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Tests.Assertions;

namespace Picollo.Tests.Baselines;

using HdrHistogram = Picollo.Metrics.HdrHistogram;

/// <summary>Synthetic machines, histograms and records for the baseline tests.</summary>
internal static class BaselineTestData
{
    public static readonly DateTime Recorded = new(2025, 6, 1, 12, 30, 45, DateTimeKind.Utc);

    public static MachineFingerprint Epyc { get; } = Machine("AMD EPYC 7763 64-Core Processor");

    public static MachineFingerprint Xeon { get; } = Machine("Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz");

    public static MachineFingerprint Machine(
        string cpu,
        string runtime = "10.0.1",
        string[]? isa = null,
        string kernel = "6.18.0",
        int cores = 4,
        bool concurrentGC = false,
        int? tscMegahertz = null) =>
        new(cpu, "X64", isa ?? ["avx", "avx2", "bmi2", "sse4.2"], hasPmu: false, cores, "Linux", kernel, runtime, isServerGC: false, isConcurrentGC: concurrentGC, tscMegahertz);

    /// <summary>A histogram with <paramref name="count"/> copies of one value.</summary>
    public static HdrHistogram Constant(ulong value, ulong count = 1_000)
    {
        HdrHistogram h = HdrHistogram.Factory.Create();
        h.Record(value, count);
        return h;
    }

    /// <summary>A deterministic, roughly normal histogram: the sum of 4 uniforms around <paramref name="center"/>.</summary>
    public static HdrHistogram Noisy(double center, double spread, int seed, int count = 2_000)
    {
        var random = new Random(seed);
        HdrHistogram h = HdrHistogram.Factory.Create();
        for (int i = 0; i < count; i++)
        {
            double u = (random.NextDouble() + random.NextDouble() + random.NextDouble() + random.NextDouble() - 2) / 2;
            h.Record((ulong)Math.Max(0, Math.Round(center + (u * spread * 2.45))));
        }

        return h;
    }

    public static BaselineCounter TaskClock(HdrHistogram h) => BaselineCounter.FromHistogram("task-clock", "ns", CounterKind.Software, h, 1);

    public static BaselineCounter Cycles(HdrHistogram h) => BaselineCounter.FromHistogram("cycles", "cycles", CounterKind.Hardware, h, 1);

    public static BaselineCounter Instructions(HdrHistogram h) => BaselineCounter.FromHistogram("instructions", "instructions", CounterKind.Hardware, h, 1);

    public static BaselineCounter AllocatedBytes(HdrHistogram h) => BaselineCounter.FromHistogram(CounterNames.AllocatedBytes, "bytes", CounterKind.Runtime, h, 1);

    public static BaselineRecord Record(params BaselineCounter[] counters) =>
        new(counters, new Dictionary<string, string> { ["samples"] = "1000", ["warmup"] = "100ms" }, Recorded);

    /// <summary>A tsc counter of 1,000 operations per sample from per-operation values (<see cref="FloorRun"/>).</summary>
    public static BaselineCounter TscCounter(double[] perOperation) => BaselineCounter.FromResult(
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, perOperation.Select(static v => (ulong)Math.Round(v * 1_000))));

    /// <summary>
    /// Per-operation values of one seeded run: 200 · scale with a 1 % normal spread; a share of samples slowed 1.2-3×; the
    /// last slowTail of the samples in a 1.5× slow mode.
    /// </summary>
    public static double[] FloorRun(int seed, int samples = 1_000, double scale = 1.0, double disturbedShare = 0, double slowTail = 0)
    {
        var random = new Random(seed);
        var values = new double[samples];
        for (int i = 0; i < samples; i++)
        {
            // Box-Muller: one standard normal from two uniforms.
            double normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
            double value = 200 * scale * (1 + (0.01 * normal));
            if (random.NextDouble() < disturbedShare)
                value *= 1.2 + (1.8 * random.NextDouble());
            if (i >= samples * (1 - slowTail))
                value *= 1.5;
            values[i] = value;
        }

        return values;
    }
}
