using BenchmarkDotNet.Attributes;

namespace Picollo.Benchmarks;

/// <summary>The time-to-verdict body under BenchmarkDotNet: the unchanged <see cref="VerdictWorkload"/>.</summary>
public class VerdictBodyBenchmark
{
    private readonly VerdictWorkload _workload = new(VerdictWorkload.BaselineArrays, VerdictWorkload.BaselineIterations);

    /// <summary>One operation; the result is returned so BenchmarkDotNet consumes it.</summary>
    [Benchmark]
    public ulong Body() => VerdictWorkload.Run(_workload);
}
