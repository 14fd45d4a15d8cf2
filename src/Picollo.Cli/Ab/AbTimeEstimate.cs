using System.Globalization;

namespace Picollo.Cli.Ab;

/// <summary>
/// A measurement's time, head over base, pooled over its process pairs (<see cref="AbStatistics"/>).
/// </summary>
/// <param name="Counter">The time counter judged (tsc, else task-clock).</param>
/// <param name="PairRatios">Each process pair's ratio (the median of its batch ratios), in the order run.</param>
/// <param name="Ratio">The pooled ratio: the geometric mean of the pairs' ratios.</param>
/// <param name="Low">The interval's low end (a ratio).</param>
/// <param name="High">The interval's high end.</param>
/// <param name="Confidence">The interval's confidence.</param>
/// <param name="CohensDz">Cohen's d_z over the pairs' log-ratios; NaN with fewer than 2.</param>
internal sealed record AbTimeEstimate(
    string Counter, IReadOnlyList<double> PairRatios, double Ratio, double Low, double High, double Confidence, double CohensDz)
{
    /// <summary>
    /// The equivalence interval's low end: the interval at <see cref="AbStatistics.EquivalenceConfidence"/>, whose lying
    /// inside ±threshold is two one-sided tests at 5 % each (docs/VERDICTS.md, "Base against head"). NaN with fewer than 2
    /// pairs.
    /// </summary>
    public double EquivalenceLow { get; init; } = double.NaN;

    /// <summary>The equivalence interval's high end.</summary>
    public double EquivalenceHigh { get; init; } = double.NaN;

    /// <summary>
    /// The change the equivalence interval rules out beyond, as a fraction (0.021 for ±2.1 %): what "unchanged" proved. NaN
    /// with fewer than 2 pairs.
    /// </summary>
    public double EquivalenceBound => Math.Max(Math.Abs(EquivalenceLow - 1), Math.Abs(EquivalenceHigh - 1));

    /// <summary>The change the run's interval rules out beyond: the farther of its ends from 1, as a fraction.</summary>
    public double Bound => Math.Max(Math.Abs(Low - 1), Math.Abs(High - 1));

    /// <summary>The process pairs.</summary>
    public int Pairs => PairRatios.Count;

    /// <summary>The ratio and interval as the progress line and the live table show them: <c>tsc ×1.022 (0.991–1.054)</c>.</summary>
    public string Summary => string.Create(CultureInfo.InvariantCulture, $"{Counter} ×{Ratio:0.000}")
        + (double.IsNaN(Low) ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" ({Low:0.000}–{High:0.000})"));
}
