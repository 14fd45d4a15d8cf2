using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Picollo.Metrics;

/// <summary>
/// Records the time between its creation and <see cref="Dispose"/> into a histogram, in the unit it was
/// created for. Get one from <see cref="HdrHistogramScopes"/> and hold it in a <c>using</c>.
/// </summary>
[StructLayout(LayoutKind.Auto)]
public readonly struct HdrTimeScope : IDisposable
{
    private readonly HdrHistogram? _histogram;
    private readonly long _start;

    // 0 records raw stopwatch ticks.
    private readonly ulong _unitsPerSecond;

    internal HdrTimeScope(HdrHistogram histogram, ulong unitsPerSecond)
    {
        _histogram = histogram;
        _unitsPerSecond = unitsPerSecond;
        _start = Stopwatch.GetTimestamp();
    }

    /// <summary>Records the elapsed time. A default instance records nothing.</summary>
    public void Dispose()
    {
        long elapsed = Stopwatch.GetTimestamp() - _start;
        _histogram?.Record(_unitsPerSecond == 0 ? (ulong)Math.Max(0, elapsed) : StopwatchTicks.ToUnits(elapsed, _unitsPerSecond));
    }
}
