using System.Diagnostics;

namespace Picollo.Measurement.Engine;

/// <summary>The engine's conversions between <see cref="Stopwatch"/> timestamps and the units its stages reason in.</summary>
internal static class EngineClock
{
    /// <summary>A duration in <see cref="Stopwatch"/> ticks.</summary>
    public static long ToStopwatchTicks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    /// <summary><see cref="Stopwatch"/> ticks in nanoseconds, fractions kept.</summary>
    public static double ToNanoseconds(long stopwatchTicks) => stopwatchTicks * 1e9 / Stopwatch.Frequency;

    /// <summary><see cref="Stopwatch"/> ticks in whole milliseconds, for notes.</summary>
    public static long ToMilliseconds(long stopwatchTicks) => stopwatchTicks * 1_000 / Stopwatch.Frequency;
}
