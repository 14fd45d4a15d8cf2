namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// A change point of a results history: the series moves to a new level at <paramref name="Index"/>.
/// </summary>
/// <param name="Index">The first point of the new segment (the first run at the new level).</param>
/// <param name="Before">The central value of the segment before: its median (an exact series: the value before).</param>
/// <param name="After">The central value of the segment from <paramref name="Index"/> on: its median (exact: the new value).</param>
/// <param name="Magnitude"><paramref name="After"/> / <paramref name="Before"/> − 1: +0.10 is 10 % higher; infinite when
/// <paramref name="Before"/> is 0 and <paramref name="After"/> is not.</param>
/// <param name="PValue">The significance test's p-value between the two segments; 0 for an exact series.</param>
internal sealed record ChangePoint(int Index, double Before, double After, double Magnitude, double PValue);
