using System.Diagnostics;

namespace Picollo.Metrics;

/// <summary>Nanosecond helpers for recording <see cref="Stopwatch"/> timings into histograms.</summary>
public static class NanoScope
{
    /// <summary>One second in nanoseconds, e.g. for <c>WithMaxTrackableValue(NanoScope.OneSecondValue)</c>.</summary>
    public const ulong OneSecondValue = 1_000_000_000;

    /// <summary>
    /// Converts <see cref="Stopwatch"/> ticks to nanoseconds exactly (no 100 ns rounding through <see cref="TimeSpan"/>).
    /// </summary>
    /// <param name="ticks">An elapsed tick count, such as <c>Stopwatch.GetTimestamp() - start</c>.</param>
    /// <returns>The nanoseconds, rounded down; 0 for negative ticks.</returns>
    public static ulong TicksToNanos(long ticks) => StopwatchTicks.ToUnits(ticks, OneSecondValue);
}
