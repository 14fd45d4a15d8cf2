namespace Picollo.Cli.Ab;

/// <summary>
/// Where a <c>picollo ab</c> run stands after a pair: a line for logs, and the tests' interim verdicts for the live table
/// (<see cref="AbProgressView"/>).
/// </summary>
/// <param name="Line">One line saying what the last pair found, for a console that is not a terminal (CI logs).</param>
/// <param name="Tests">Every test's verdict so far (not final: undecided ones are still inconclusive).</param>
/// <param name="Decided">The tests that want no more pairs.</param>
/// <param name="Elapsed">The time since the first pair.</param>
/// <param name="SecondsLeft">The estimate of what is left: the pairs still due at the mean pair's time so far.</param>
internal sealed record AbProgress(string Line, IReadOnlyList<AbTestResult> Tests, int Decided, TimeSpan Elapsed, double SecondsLeft)
{
    /// <summary>
    /// The run ends here before every test was decided (the time budget): the line is news a live table must not swallow.
    /// </summary>
    public bool EndsEarly { get; init; }
}
