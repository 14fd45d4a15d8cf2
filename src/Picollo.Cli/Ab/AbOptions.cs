namespace Picollo.Cli.Ab;

/// <summary>How <c>picollo ab</c> judges (docs/VERDICTS.md, "Base against head").</summary>
internal sealed record AbOptions
{
    /// <summary>The change that matters, as a fraction: unchanged means inside ±threshold (default 3 %).</summary>
    public double Threshold { get; init; } = 0.03;

    /// <summary>The interval's confidence (default 99 %).</summary>
    public double Confidence { get; init; } = 0.99;

    /// <summary>The process pairs every test gets before a verdict (default 3).</summary>
    public int MinPairs { get; init; } = 3;

    /// <summary>The most process pairs a test gets while it is undecided (default 10).</summary>
    public int MaxPairs { get; init; } = 10;

    /// <summary>How long a worker may stay silent before its pair is given up.</summary>
    public TimeSpan WorkerTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>
    /// Inside a pair, the batches judged: those whose floors are within this fraction of the pair's fastest batch, so a
    /// stretch of contention (a build beside the pair, a burst) does not decide the pair's ratio; infinity takes every batch.
    /// </summary>
    public double FastStretch { get; init; } = double.PositiveInfinity;

    /// <summary>
    /// Across pairs, a pair whose fastest stretch was slower than the fastest pair's by more than this fraction ran under
    /// contention, which moves two builds' processes by different amounts; such pairs are set aside while at least
    /// <see cref="MinPairs"/> others remain. Infinity keeps every pair.
    /// </summary>
    public double ContendedPair { get; init; } = double.PositiveInfinity;

    /// <summary>The CPU both workers of a pair measure on: the last by default (the tool's threads and most system work start on the first).</summary>
    public int Cpu { get; init; } = System.Environment.ProcessorCount - 1;

    /// <summary>The whole run's time after the builds: no new pair starts past it (default 20 minutes).</summary>
    public TimeSpan TimeBudget { get; init; } = TimeSpan.FromMinutes(20);
}
