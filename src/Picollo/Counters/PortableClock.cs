using System.Diagnostics;

namespace Picollo.Counters;

/// <summary>
/// The runtime's high-resolution clock (<see cref="Stopwatch"/>) as the <c>clock</c> counter reads it: nanoseconds on every
/// OS, whatever the clock's own rate (1 GHz on Linux and macOS, usually 10 MHz on Windows), and the smallest step it shows
/// here, which the pilot keeps under 1 % of a sample (docs/COUNTERS.md, "The portable clock").
/// </summary>
internal static class PortableClock
{
    private const long NanosecondsPerSecond = 1_000_000_000;

    // Static readonly: tier-1 code folds them into constants, so the branch in ReadNanoseconds disappears from the reader.
    private static readonly long s_frequency = Stopwatch.Frequency;

    // Whole nanoseconds per tick when the rate divides 1 GHz (1 on Linux and macOS, 100 at Windows' usual 10 MHz), else 0.
    private static readonly ulong s_nanosecondsPerTick =
        NanosecondsPerSecond % s_frequency == 0 ? (ulong)(NanosecondsPerSecond / s_frequency) : 0;

    private static readonly Lazy<double> s_resolution = new(MeasureResolution, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>The clock's rate, <see cref="Stopwatch.Frequency"/>, in ticks per second.</summary>
    public static long Frequency => s_frequency;

    /// <summary>
    /// The smallest step between two reads of the clock, in nanoseconds, measured once per process (at most about 20 ms): one
    /// tick where the clock is coarser than a read (100 ns at 10 MHz), the cost of a read where it is finer (about 25 ns on
    /// the development VM). A sample shorter than 100 of these would carry the clock's rounding in its time.
    /// </summary>
    public static double ResolutionNanoseconds => s_resolution.Value;

    /// <summary>
    /// The clock now in nanoseconds: <see cref="Stopwatch.GetTimestamp"/> scaled to 1 GHz without overflow, rounded down, so
    /// differences of two reads are exact to 1 ns. No allocation and no virtual call: a sample boundary.
    /// </summary>
    /// <returns>Nanoseconds since the clock's origin (boot, on most systems).</returns>
    public static ulong ReadNanoseconds() => ToNanoseconds(Stopwatch.GetTimestamp());

    /// <summary>A timestamp of <see cref="Stopwatch"/> in nanoseconds, rounded down.</summary>
    /// <param name="timestamp">A value of <see cref="Stopwatch.GetTimestamp"/>; 0 when negative.</param>
    /// <returns>The same instant in nanoseconds since the clock's origin.</returns>
    public static ulong ToNanoseconds(long timestamp)
    {
        if (timestamp <= 0)
            return 0;
        if (s_nanosecondsPerTick != 0)
            return (ulong)timestamp * s_nanosecondsPerTick;

        // Any other rate: whole seconds and the rest apart, so ticks × 1e9 never overflows 64 bits (the rest is below the
        // rate, and rate × 1e9 fits for any rate under 18 GHz).
        ulong ticks = (ulong)timestamp, frequency = (ulong)s_frequency;
        return ticks / frequency * NanosecondsPerSecond + ticks % frequency * NanosecondsPerSecond / frequency;
    }

    // The fastest of many steps: a step is never shorter than a tick nor than a read, and preemption only lengthens it.
    private static double MeasureResolution()
    {
        const int Steps = 64;
        long previous = Stopwatch.GetTimestamp();
        long deadline = previous + (s_frequency / 50);
        long smallest = long.MaxValue;
        for (int seen = 0; seen < Steps;)
        {
            long now = Stopwatch.GetTimestamp();
            if (now >= deadline)
                break;
            if (now == previous)
                continue;
            smallest = Math.Min(smallest, now - previous);
            previous = now;
            seen++;
        }

        // No step within the deadline: the clock is at least that coarse.
        return smallest == long.MaxValue ? 1e9 / 50 : smallest * 1e9 / s_frequency;
    }
}
