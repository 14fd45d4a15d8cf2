namespace Picollo.Baselines.Records;

/// <summary>
/// How steady the moment was when a baseline counter was recorded, and how far its speed ranged (docs/VERDICTS.md,
/// "Recording").
/// </summary>
/// <param name="Runs">The measurements taken before two agreed on the counter's statistic (1 when only one was taken).</param>
/// <param name="Drift">
/// The relative difference of the statistic between the two runs that agreed, on a log scale (|ln(a / b)|); verdicts
/// against this baseline count at least this much run-to-run drift.
/// </param>
/// <param name="DetectableChange">
/// The smallest rise of the statistic that a later measurement is 95 % likely to tell from noise against this baseline
/// (0.072 = "detects ≥ 7.2 %"), as the policy stood when it was recorded, the recorded spread included. For review;
/// verdicts recompute it.
/// </param>
internal sealed record RecordingQuality(int Runs, double Drift, double? DetectableChange)
{
    /// <summary>
    /// How many processes measured the body for this recording: this one and the fresh processes the recording started
    /// (<c>IFreshProcessMeasurer</c>); 1 for a recording of one process.
    /// </summary>
    public int Processes { get; init; } = 1;

    /// <summary>
    /// The slowest level of the counter's statistic that the recording saw in a process, over the level the baseline
    /// holds (its fastest), as a ratio: 1 when every process ran at one speed, 1.34 when one ran its floor 34 % slower.
    /// A time verdict fails only beyond the slowest level seen (<c>TimeAllowance</c>).
    /// </summary>
    public double Spread { get; init; } = 1;
}
