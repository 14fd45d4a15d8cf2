using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Metrics;

namespace Picollo.Tests.Assertions;

/// <summary>Results built from fixed samples, so assertion messages are deterministic.</summary>
internal static class SyntheticResults
{
    public static CounterResult Counter(string name, string unit, CounterKind kind, long operationsPerSample, IEnumerable<ulong> samples, ulong overheadPerSample = 0)
    {
        ulong[] values = [.. samples];
        HdrHistogram histogram = HdrHistogram.Factory.Create();
        foreach (ulong value in values)
            histogram.Record(value);

        HdrHistogram overheadHistogram = HdrHistogram.Factory.Create();
        overheadHistogram.Record(overheadPerSample, 10);
        var overhead = new CounterOverhead(overheadHistogram, overheadPerSample, overheadPerSample, overheadPerSample, overheadPerSample, 0, 10);
        return new CounterResult(new CounterDescriptor(name, unit, kind), operationsPerSample, values, histogram, overhead, double.NaN);
    }

    public static CounterResult Unavailable(string name, string reason)
        => CounterResult.Unavailable(new CounterDescriptor(name, "events", CounterKind.Hardware, reason), 0.001);

    public static PerfResult Result(params CounterResult[] counters) => Result(WarmupEnd.CodeOptimized, counters);

    public static PerfResult Result(WarmupEnd warmupEnd, params CounterResult[] counters) => Result(warmupEnd, [], counters);

    public static PerfResult Result(WarmupEnd warmupEnd, IReadOnlyList<string> notes, params CounterResult[] counters)
    {
        var run = new PerfRunInfo
        {
            OperationsPerSample = counters[0].OperationsPerSample,
            SampleCount = counters[0].SampleCount,
            WarmupTime = TimeSpan.FromMilliseconds(100),
            WarmupEnd = warmupEnd,
            WallTime = TimeSpan.FromSeconds(1),
            BoundaryNanoseconds = 1_000,
            OperationNanoseconds = 100,
            SampleNanoseconds = 100_000,
            PinnedCpu = 0,
            TimestampUtc = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc),
            Notes = notes,
        };
        return new PerfResult(counters, PerfOptions.Default, run);
    }

    /// <summary>100 samples of 1,000 operations: 300,000 … 399,000 ticks per sample (300 … 399 per operation).</summary>
    public static CounterResult Tsc() => Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => (ulong)(300_000 + (i * 1_000))), overheadPerSample: 2_600);
}
