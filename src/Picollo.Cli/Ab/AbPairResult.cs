namespace Picollo.Cli.Ab;

/// <summary>What one process pair of <c>picollo ab</c> left (<see cref="AbPairRun"/>).</summary>
/// <param name="Outcomes">Each test's records and problem; a test the pair did not measure paired is absent.</param>
/// <param name="Unpaired">
/// The tests both sides measured, each alone, because the builds ran them in different orders: not a pair of theirs.
/// </param>
/// <param name="BaseOrder">The tests in the order the base's worker began them (empty without a base side).</param>
/// <param name="HeadOrder">The head's.</param>
internal sealed record AbPairResult(
    IReadOnlyDictionary<AbTest, AbPairOutcome> Outcomes,
    IReadOnlySet<AbTest> Unpaired,
    IReadOnlyList<AbTest> BaseOrder,
    IReadOnlyList<AbTest> HeadOrder);
