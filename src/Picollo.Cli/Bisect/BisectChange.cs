using System.Globalization;
using Picollo.Cli.Ab;

namespace Picollo.Cli.Bisect;

/// <summary>
/// The change <c>picollo bisect</c> hunts: one test's measurement, one counter of it, one direction, as the bad commit
/// measured against the good one showed it. A step is bad when it shows the same.
/// </summary>
/// <param name="Test">The test.</param>
/// <param name="Project">Its project, relative to the repository.</param>
/// <param name="Key">The measurement's key (the test's display name and the measurement's order in it).</param>
/// <param name="Counter">The counter: an exact or simulated one, or the time counter (tsc, task-clock).</param>
/// <param name="Direction"><see cref="AbVerdict.Regressed"/> or <see cref="AbVerdict.Improved"/>.</param>
/// <param name="Exact">
/// Whether the counter is exact or simulated: it repeats, so one process pair per step decides (docs/VERDICTS.md, "Exact
/// counters"); a time counter takes pairs to an interval, as <c>picollo ab</c> does.
/// </param>
/// <param name="Summary">What the bad commit measured: <c>0 → 24 bytes/op</c>, <c>×1.310 (+31.0%)</c>.</param>
internal sealed record BisectChange(
    AbTest Test, string Project, string Key, string Counter, AbVerdict Direction, bool Exact, string Summary)
{
    /// <summary>The change in a line: <c>WorkPerf.Alloc: allocated-bytes regressed (0 → 24 bytes/op)</c>.</summary>
    public override string ToString() =>
        $"{Test.ShortName}: {Counter} {Direction.ToString().ToLowerInvariant()} ({Summary})";

    /// <summary>An exact counter's means, as the report's cell writes them: <c>0 → 24 bytes/op</c>.</summary>
    /// <param name="counter">The counter.</param>
    /// <returns>The text.</returns>
    public static string Means(AbExactCounter counter)
    {
        ArgumentNullException.ThrowIfNull(counter);
        return string.Create(CultureInfo.InvariantCulture, $"{counter.Base:0.##} → {counter.Head:0.##} {counter.Unit}/op");
    }

    /// <summary>A time estimate's ratio, as the report writes it: <c>×1.310 (+31.0%)</c>.</summary>
    /// <param name="time">The estimate.</param>
    /// <returns>The text.</returns>
    public static string Ratio(AbTimeEstimate time)
    {
        ArgumentNullException.ThrowIfNull(time);
        return string.Create(CultureInfo.InvariantCulture, $"×{time.Ratio:0.000} ({(time.Ratio - 1):+0.0%;-0.0%;0.0%})");
    }
}
