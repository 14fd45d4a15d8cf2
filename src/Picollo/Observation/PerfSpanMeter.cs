using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using Picollo.Counters;

namespace Picollo.Observation;

/// <summary>
/// The <see cref="Meter"/> named <c>Picollo</c> through which OpenTelemetry's metrics SDK and <c>dotnet-counters</c> collect
/// span histograms: one histogram instrument per counter (<c>picollo.span.duration</c> in seconds, <c>picollo.span.allocated</c>
/// in bytes, <c>picollo.span.&lt;counter&gt;</c> for perf_event counters, <c>picollo.span.ipc</c>), each value tagged
/// <c>picollo.span</c> = the span's name, and the counter <c>picollo.span.hops</c>. Instruments are shared by every span that
/// counts the same counter; a span records into them only while a listener has enabled them.
/// </summary>
internal static class PerfSpanMeter
{
    /// <summary>The meter name to subscribe to (<c>AddMeter("Picollo")</c>, <c>dotnet-counters monitor --counters Picollo</c>).</summary>
    public const string MeterName = "Picollo";

    /// <summary>The tag that carries the span's name on every measurement.</summary>
    public const string SpanTag = "picollo.span";

    private static readonly Meter s_meter = new(MeterName, typeof(PerfSpanMeter).Assembly.GetName().Version?.ToString(3));
    private static readonly Lock s_lock = new();
    private static readonly Dictionary<string, SpanInstrument> s_instruments = new(StringComparer.Ordinal);

    // Explicit bucket advice for SDKs that honour it (OpenTelemetry does): the SDK's default boundaries (0 … 10,000) are
    // made for milliseconds and would put every span of a service in one bucket. Spans last from ~100 ns to seconds.
    private static readonly double[] s_secondsBoundaries =
        [
            1e-7, 2.5e-7, 5e-7, 1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2,
            0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        ];

    private static readonly long[] s_countBoundaries =
        [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000];

    private static readonly long[] s_byteBoundaries =
        [0, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864];

    private static readonly double[] s_ipcBoundaries = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6];

    /// <summary>Spans whose scope was disposed on another thread than the one that entered it.</summary>
    public static Counter<long> Hops { get; } = s_meter.CreateCounter<long>(
        "picollo.span.hops", "{span}", "Spans that ended on another thread than the one that entered them; their values are not recorded.");

    /// <summary>The instrument of <paramref name="counter"/> (created on first use, shared by every span).</summary>
    public static SpanInstrument For(CounterDescriptor counter, double secondsPerTick)
    {
        string name = InstrumentName(counter.Name);
        lock (s_lock)
        {
            if (s_instruments.TryGetValue(name, out SpanInstrument? existing))
                return existing;
            SpanInstrument created = Create(counter, name, secondsPerTick);
            s_instruments.Add(name, created);
            return created;
        }
    }

    /// <summary>The instrument of instructions per cycle, per span.</summary>
    public static SpanInstrument Ipc()
    {
        lock (s_lock)
        {
            const string name = "picollo.span.ipc";
            if (!s_instruments.TryGetValue(name, out SpanInstrument? ipc))
            {
                ipc = SpanInstrument.Scaled(
                    s_meter.CreateHistogram(
                        name,
                        "{instruction}/{cycle}",
                        "Instructions per cycle of each span (when it counts cycles and instructions).",
                        null,
                        new InstrumentAdvice<double> { HistogramBucketBoundaries = s_ipcBoundaries }),
                    PerfSpan.IpcScaleInverse);
                s_instruments.Add(name, ipc);
            }

            return ipc;
        }
    }

    /// <summary>
    /// <c>picollo.span.</c> + the counter name in OpenTelemetry's instrument-name alphabet: lower case, <c>_</c> for anything
    /// but letters, digits and dots (<c>branch-misses</c> → <c>picollo.span.branch_misses</c>); the TSC and allocated bytes have
    /// names of their own (<c>duration</c>, <c>allocated</c>).
    /// </summary>
    public static string InstrumentName(string counterName)
    {
        if (string.Equals(counterName, CounterNames.Tsc, StringComparison.OrdinalIgnoreCase))
            return "picollo.span.duration";
        if (string.Equals(counterName, CounterNames.AllocatedBytes, StringComparison.OrdinalIgnoreCase))
            return "picollo.span.allocated";
        var name = new StringBuilder("picollo.span.");
        foreach (char c in counterName.ToLowerInvariant())
            name.Append(char.IsAsciiLetterOrDigit(c) || c == '.' ? c : '_');
        return name.ToString().TrimEnd('_');
    }

    private static SpanInstrument Create(CounterDescriptor counter, string name, double secondsPerTick)
    {
        if (counter.Kind == CounterKind.Tsc)
        {
            return SpanInstrument.Scaled(
                s_meter.CreateHistogram(
                    name,
                    "s",
                    "Wall time of each span, from the time-stamp counter.",
                    null,
                    new InstrumentAdvice<double> { HistogramBucketBoundaries = s_secondsBoundaries }),
                secondsPerTick);
        }

        if (string.Equals(counter.Name, CounterNames.AllocatedBytes, StringComparison.OrdinalIgnoreCase))
        {
            return SpanInstrument.Counted(
                s_meter.CreateHistogram(
                    name,
                    "By",
                    "Bytes allocated by the entering thread during each span.",
                    null,
                    new InstrumentAdvice<long> { HistogramBucketBoundaries = s_byteBoundaries }));
        }

        if (counter.Unit == "ns")
        {
            return SpanInstrument.Scaled(
                s_meter.CreateHistogram(
                    name,
                    "s",
                    counter.Name + " of each span (perf_event), in seconds.",
                    null,
                    new InstrumentAdvice<double> { HistogramBucketBoundaries = s_secondsBoundaries }),
                1e-9);
        }

        string unit = counter.Unit == "events" ? "{" + SingularEvent(counter.Name) + "}" : counter.Unit;
        return SpanInstrument.Counted(s_meter.CreateHistogram(
            name,
            unit,
            string.Create(CultureInfo.InvariantCulture, $"{counter.Name} counted during each span (perf_event, the entering thread)."),
            null,
            new InstrumentAdvice<long> { HistogramBucketBoundaries = s_countBoundaries }));
    }

    private static string SingularEvent(string counterName) => counterName switch
    {
        CounterNames.Cycles => "cycle",
        CounterNames.Instructions => "instruction",
        CounterNames.Branches => "branch",
        CounterNames.BranchMisses => "miss",
        CounterNames.CacheMisses => "miss",
        CounterNames.PageFaults => "fault",
        _ => "event",
    };
}
