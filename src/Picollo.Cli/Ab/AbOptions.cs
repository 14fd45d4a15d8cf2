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
    /// The most samples each side takes in a paired measurement (default 400; the test's own count when lower). Precision
    /// comes from the process pairs, so a pair's samples past steady batch floors only lengthen the run: 400 instead of a
    /// test's 1,000 took a pair from about 4.0 to 3.3 s in bench ab, its batches still 20 samples each.
    /// </summary>
    public int SamplesPerPair { get; init; } = 400;

    /// <summary>
    /// The CPU both workers of a pair measure on: the last by default (the tool's threads and most system work start on the
    /// first).
    /// </summary>
    public int Cpu { get; init; } = System.Environment.ProcessorCount - 1;

    /// <summary>
    /// The most tests one process pair runs in a round (default: all of a project's due tests). The bench sets 1 to measure
    /// against a pair per test in the same session.
    /// </summary>
    public int TestsPerPair { get; init; } = int.MaxValue;

    /// <summary>The whole run's time after the builds: no new pair starts past it (default 20 minutes).</summary>
    public TimeSpan TimeBudget { get; init; } = TimeSpan.FromMinutes(20);
}
