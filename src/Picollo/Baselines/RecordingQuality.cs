namespace Picollo.Baselines;

/// <summary>How steady the moment was when a baseline counter was recorded (docs/VERDICTS.md, "Recording").</summary>
/// <param name="Runs">The measurements taken before two agreed on the counter's statistic (1 when only one was taken).</param>
/// <param name="Drift">
/// The relative difference of the statistic between the two runs that agreed, on a log scale (|ln(a / b)|); verdicts
/// against this baseline count at least this much run-to-run drift.
/// </param>
/// <param name="DetectableChange">
/// The smallest rise of the statistic that a later measurement is 95 % likely to tell from noise against this baseline
/// (0.072 = "detects ≥ 7.2 %"), as the policy stood when it was recorded. For review; verdicts recompute it.
/// </param>
internal sealed record RecordingQuality(int Runs, double Drift, double? DetectableChange);
