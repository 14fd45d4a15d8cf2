using Picollo.Measurement.Engine;

namespace Picollo.Cli.Ab;

/// <summary>What one process pair produced (<see cref="AbPairRun"/>).</summary>
/// <param name="Measurements">Both sides' measurement records.</param>
/// <param name="Failures">Tests that failed on a side, with the message.</param>
/// <param name="Problem">Why the pair was given up or a side measured nothing; <see langword="null"/> when both ran to their end.</param>
internal sealed record AbPairOutcome(
    IReadOnlyList<PairedRecord> Measurements, IReadOnlyList<PairedRecord> Failures, string? Problem)
{
    /// <summary>Whose side <see cref="Problem"/> is: <c>base</c>, <c>head</c>, or <c>tool</c>.</summary>
    public string? ProblemSide { get; init; }
}
