using System.Diagnostics;

namespace Picollo.Metrics;

/// <summary>
/// Converts <see cref="Stopwatch"/> ticks to time units without going through <see cref="TimeSpan"/> (100 ns resolution).
/// </summary>
internal static class StopwatchTicks
{
    private static readonly ulong s_frequency = (ulong)Stopwatch.Frequency;

    /// <summary>ticks · unitsPerSecond / frequency, exact to the unit below, never overflowing; 0 for negative ticks.</summary>
    public static ulong ToUnits(long ticks, ulong unitsPerSecond)
    {
        if (ticks <= 0)
            return 0;
        if (unitsPerSecond == s_frequency)
            return (ulong)ticks; // Linux: the stopwatch already counts nanoseconds.

        // 128-bit product: ticks · 1e9 overflows 64 bits after ~9.2 s of 1 GHz ticks.
        return (ulong)((UInt128)(ulong)ticks * unitsPerSecond / s_frequency);
    }
}
