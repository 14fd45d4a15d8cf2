namespace Picollo.Metrics;

/// <summary>
/// <c>using (histogram.GetNanoScope()) { … }</c>: time a region into a histogram without unit mistakes.
/// </summary>
public static class HdrHistogramScopes
{
    /// <summary>Records raw <see cref="System.Diagnostics.Stopwatch"/> ticks (the finest the clock gives).</summary>
    /// <param name="histogram">Where the elapsed ticks go.</param>
    /// <returns>A scope to dispose at the end of the region.</returns>
    public static HdrTimeScope GetTickScope(this HdrHistogram histogram) => Create(histogram, 0);

    /// <summary>Records elapsed nanoseconds.</summary>
    /// <param name="histogram">Where the elapsed nanoseconds go.</param>
    /// <returns>A scope to dispose at the end of the region.</returns>
    public static HdrTimeScope GetNanoScope(this HdrHistogram histogram) => Create(histogram, 1_000_000_000);

    /// <summary>Records elapsed microseconds (rounded down).</summary>
    /// <param name="histogram">Where the elapsed microseconds go.</param>
    /// <returns>A scope to dispose at the end of the region.</returns>
    public static HdrTimeScope GetMicroScope(this HdrHistogram histogram) => Create(histogram, 1_000_000);

    /// <summary>Records elapsed milliseconds (rounded down).</summary>
    /// <param name="histogram">Where the elapsed milliseconds go.</param>
    /// <returns>A scope to dispose at the end of the region.</returns>
    public static HdrTimeScope GetMilliScope(this HdrHistogram histogram) => Create(histogram, 1_000);

    private static HdrTimeScope Create(HdrHistogram histogram, ulong unitsPerSecond)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        return new HdrTimeScope(histogram, unitsPerSecond);
    }
}
