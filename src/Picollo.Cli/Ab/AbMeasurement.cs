namespace Picollo.Cli.Ab;

/// <summary>One measurement of a test (its key: the test's display name and the measurement's order in it), judged.</summary>
/// <param name="Key">The key.</param>
/// <param name="Verdict">Time and exact counters together, the worse.</param>
/// <param name="Time">The time estimate; <see langword="null"/> when no pair measured it on both sides.</param>
/// <param name="Exact">The exact counters.</param>
internal sealed record AbMeasurement(string Key, AbVerdict Verdict, AbTimeEstimate? Time, IReadOnlyList<AbExactCounter> Exact)
{
    /// <summary>
    /// The pairs whose time was set aside: either side ran code that was not final (<see cref="AbStatistics.SetAside"/>).
    /// </summary>
    public int SetAsidePairs { get; init; }
}
