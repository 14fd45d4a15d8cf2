using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;

namespace Picollo.Observation;

/// <summary>
/// The <see cref="PerfSpanMeter"/> instrument one recorded counter of a span exports to: a histogram in seconds for the
/// TSC (converted with the calibrated tick rate), in the counter's own unit otherwise, tagged with the span's name.
/// </summary>
internal sealed class SpanInstrument
{
    private readonly Instrument _instrument;
    private readonly Histogram<double>? _seconds;
    private readonly Histogram<long>? _counts;
    private readonly double _scale;

    private SpanInstrument(Histogram<double>? seconds, Histogram<long>? counts, double scale)
    {
        _instrument = (Instrument?)seconds ?? counts!;
        _seconds = seconds;
        _counts = counts;
        _scale = scale;
    }

    /// <summary>Whether a listener (OpenTelemetry, dotnet-counters, a MeterListener) collects this instrument now.</summary>
    public bool Enabled
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _instrument.Enabled;
    }

    /// <summary>An instrument that exports values multiplied by <paramref name="scale"/> as a floating-point histogram.</summary>
    public static SpanInstrument Scaled(Histogram<double> histogram, double scale) => new(histogram, null, scale);

    /// <summary>An instrument that exports values as they are counted.</summary>
    public static SpanInstrument Counted(Histogram<long> histogram) => new(null, histogram, 1);

    /// <summary>Exports one span's value (call when <see cref="Enabled"/>).</summary>
    public void Record(ulong value, KeyValuePair<string, object?> spanTag)
    {
        if (_seconds is not null)
            _seconds.Record(value * _scale, spanTag);
        else
            _counts!.Record(value > long.MaxValue ? long.MaxValue : (long)value, spanTag);
    }
}
