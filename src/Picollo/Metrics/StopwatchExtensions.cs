using System.Diagnostics;

namespace Picollo.Metrics;

/// <summary>Precise elapsed-time accessors for <see cref="Stopwatch"/>.</summary>
public static class StopwatchExtensions
{
    extension(Stopwatch stopwatch)
    {
        /// <summary>Elapsed nanoseconds from the raw ticks; <c>Elapsed.TotalNanoseconds</c> rounds to 100 ns.</summary>
        public ulong ElapsedNanos => NanoScope.TicksToNanos(stopwatch.ElapsedTicks);
    }
}
