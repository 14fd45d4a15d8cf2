using System.Diagnostics;

namespace Picollo.Counters;

/// <summary>Measures the TSC rate against <c>CLOCK_MONOTONIC_RAW</c> when CPUID does not report it.</summary>
/// <remarks>
/// CLOCK_MONOTONIC_RAW is the kernel's clocksource without NTP slewing, so the result is the TSC's own rate
/// rather than one bent toward wall time. Each end point is a bracket <c>clock, tsc, clock</c>: the TSC was read
/// somewhere inside the bracket, so the bracket's midpoint is the clock time of the read within ± half its
/// width. Preemption or an interrupt only widens a bracket, so the narrowest of many attempts is kept.
/// </remarks>
internal static class TscCalibration
{
    /// <summary>The clock time between the two end points: 20 ms makes a 50 ns bracket ≈ 2.5 ppm.</summary>
    internal const ulong IntervalNanoseconds = 20_000_000;

    /// <summary>Attempts per end point (each ≈ 3 reads, well under a microsecond); the narrowest bracket wins.</summary>
    internal const int BracketAttempts = 100;

    // Sleep through most of the interval (the TSC keeps counting), then spin on the clock for the rest so
    // a late wake-up of the scheduler cannot stretch the calibration much past 20 ms.
    private const int SleepMilliseconds = 17;

    /// <summary>Calibrates now; takes about <see cref="IntervalNanoseconds"/>. Callers cache the result.</summary>
    internal static TscFrequency Calibrate()
    {
        Bracket first = TakeBracket();
        Thread.Sleep(SleepMilliseconds);
        while (Interop.Clock.GetNanoseconds(Interop.Clock.CLOCK_MONOTONIC_RAW) - first.ClockMidpoint < IntervalNanoseconds)
            Thread.SpinWait(16);
        Bracket second = TakeBracket();
        return FromBrackets(first, second);
    }

    /// <summary>The rate between two brackets and its uncertainty from the brackets' widths.</summary>
    internal static TscFrequency FromBrackets(Bracket first, Bracket second)
    {
        Debug.Assert(second.ClockMidpoint > first.ClockMidpoint && second.Ticks > first.Ticks, "brackets must be taken in order");
        double elapsedNanoseconds = second.ClockMidpoint - first.ClockMidpoint;
        double hertz = (second.Ticks - first.Ticks) * 1e9 / elapsedNanoseconds;

        // Each midpoint is off by at most half its bracket, plus the clock's 1 ns resolution.
        double errorNanoseconds = (first.ClockWidth / 2.0) + (second.ClockWidth / 2.0) + 2.0;
        return new TscFrequency(hertz, TscFrequencySource.CalibratedMonotonicRaw, errorNanoseconds / elapsedNanoseconds * 1e6);
    }

    private static Bracket TakeBracket()
    {
        var best = new Bracket(0, 0, ulong.MaxValue);
        for (int attempt = 0; attempt < BracketAttempts; attempt++)
        {
            ulong before = Interop.Clock.GetNanoseconds(Interop.Clock.CLOCK_MONOTONIC_RAW);
            ulong ticks = Interop.Tsc.ReadStart();
            ulong after = Interop.Clock.GetNanoseconds(Interop.Clock.CLOCK_MONOTONIC_RAW);
            ulong width = after - before;
            if (width < best.ClockWidth)
                best = new Bracket(ticks, before + (width / 2), width);
        }

        return best;
    }

    /// <summary>One end point: a TSC read and the clock readings around it.</summary>
    /// <param name="Ticks">The TSC read between the two clock reads.</param>
    /// <param name="ClockMidpoint">The middle of the two clock reads, in ns.</param>
    /// <param name="ClockWidth">The time between the two clock reads, in ns.</param>
    internal readonly record struct Bracket(ulong Ticks, ulong ClockMidpoint, ulong ClockWidth);
}
