namespace Picollo.Cli.Ab;

/// <summary>One test method of <c>picollo ab</c>, judged.</summary>
/// <param name="Test">The test.</param>
/// <param name="Project">The project it is in, relative to the repository.</param>
/// <param name="Verdict">The worst of its measurements', or new, removed, failed, not judged.</param>
/// <param name="Measurements">Its measurements.</param>
/// <param name="ProcessPairs">The process pairs run.</param>
/// <param name="Problems">Why pairs were given up, and the head's failures.</param>
internal sealed record AbTestResult(
    AbTest Test,
    string Project,
    AbVerdict Verdict,
    IReadOnlyList<AbMeasurement> Measurements,
    int ProcessPairs,
    IReadOnlyList<string> Problems)
{
    /// <summary>The process pairs' raw outcomes, for a caller that judges them again (the bench's variants of the statistic).</summary>
    public IReadOnlyList<AbPairOutcome> PairOutcomes { get; init; } = [];
}
