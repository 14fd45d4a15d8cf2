using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Tracing;
using System.Runtime.InteropServices;

namespace Picollo.Observation;

/// <summary>
/// The <c>Picollo</c> event source: one <c>SpanEnded</c> event per span with its counter values, for <c>dotnet-trace</c>,
/// PerfView and EventPipe consumers (<c>dotnet-trace collect --providers Picollo:0x1:4</c>). <c>SpanDefined</c> events
/// (written when a session enables the source, and for each span created while it is enabled) name the counters behind
/// the value slots. Span events are written without allocating: the payload is described on the stack and the name
/// string is pinned in place, never copied (docs/OBSERVATION.md, "Events").
/// </summary>
[EventSource(Name = SourceName)]
[SuppressMessage("Performance", "CA1822", Justification = "Event methods are instance methods by EventSource's contract.")]
internal sealed class PerfSpanEventSource : EventSource
{
    /// <summary>The provider name.</summary>
    public const string SourceName = "Picollo";

    /// <summary>Event ids.</summary>
    public const int SpanDefinedId = 1;

    /// <summary>Event ids.</summary>
    public const int SpanEndedId = 2;

    /// <summary>Event ids.</summary>
    public const int SpanHoppedId = 3;

    /// <summary>The value slots of a <c>SpanEnded</c> event: a span counts at most this many counters.</summary>
    public const int ValueSlots = 8;

    /// <summary>The one instance.</summary>
    public static readonly PerfSpanEventSource Log = new();

    private PerfSpanEventSource()
        : base(EventSourceSettings.EtwManifestEventFormat)
    {
    }

    // Kept by OnEventCommand: a static field is one load on the span's path, where EventSource.IsEnabled(level, keywords)
    // is a call through the instance that checks level and keywords every time.
    private static volatile bool s_spansEnabled;

    /// <summary>Whether a session listens to span events: the one check a span pays when nobody does.</summary>
    public bool SpansEnabled => s_spansEnabled;

    /// <summary>
    /// Names a span's value slots: its id, name, counters and units in slot order (comma-separated), and the TSC rate
    /// that converts the <c>tsc</c> slot to seconds (0 when the span does not count it).
    /// </summary>
    [Event(SpanDefinedId, Level = EventLevel.Informational, Keywords = Keywords.Spans, Message = "Span {1} (id {0}) counts {2} in {3}")]
    public void SpanDefined(int SpanId, string Span, string Counters, string Units, long TscTicksPerSecond) =>
        WriteEvent(SpanDefinedId, SpanId, Span, Counters, Units, TscTicksPerSecond);

    /// <summary>
    /// A span ended on the thread that entered it: its values in the slot order its <c>SpanDefined</c> event names (unused slots 0).
    /// </summary>
    [Event(SpanEndedId, Level = EventLevel.Informational, Keywords = Keywords.Spans, Message = "Span {1} ended")]
    public void SpanEnded(
        int SpanId, string Span, long Value0, long Value1, long Value2, long Value3, long Value4, long Value5, long Value6, long Value7)
    {
        ReadOnlySpan<ulong> values =
            [(ulong)Value0, (ulong)Value1, (ulong)Value2, (ulong)Value3, (ulong)Value4, (ulong)Value5, (ulong)Value6, (ulong)Value7];
        WriteSpanEnded(SpanId, Span, values);
    }

    /// <summary>A span ended on another thread than the one that entered it: counted, not measured.</summary>
    [Event(SpanHoppedId, Level = EventLevel.Informational, Keywords = Keywords.Spans, Message = "Span {1} ended on another thread")]
    public void SpanHopped(int SpanId, string Span) => WriteEvent(SpanHoppedId, SpanId, Span);

    /// <summary>
    /// Writes <c>SpanEnded</c> without allocating: ten payload descriptors on the stack, the values copied into a stack
    /// buffer (so a span with fewer counters sends zeros in the remaining slots), the name pinned where it lies.
    /// </summary>
    [NonEvent]
    public unsafe void WriteSpanEnded(int spanId, string span, ReadOnlySpan<ulong> values)
    {
        ulong* slots = stackalloc ulong[ValueSlots];
        new Span<ulong>(slots, ValueSlots).Clear();
        values[..Math.Min(values.Length, ValueSlots)].CopyTo(new Span<ulong>(slots, ValueSlots));

        fixed (char* name = span)
        {
            EventData* data = stackalloc EventData[2 + ValueSlots];
            data[0] = new EventData { DataPointer = (nint)(&spanId), Size = sizeof(int) };
            // A .NET string is stored NUL-terminated: the manifest's string type is read up to that terminator.
            data[1] = new EventData { DataPointer = (nint)name, Size = (span.Length + 1) * sizeof(char) };
            for (int i = 0; i < ValueSlots; i++)
                data[2 + i] = new EventData { DataPointer = (nint)(slots + i), Size = sizeof(ulong) };
            WriteEventCore(SpanEndedId, 2 + ValueSlots, data);
        }
    }

    /// <inheritdoc/>
    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        s_spansEnabled = IsEnabled(EventLevel.Informational, Keywords.Spans);
        // A session that starts late still learns what the slots of every existing span mean.
        if (command.Command == EventCommand.Enable && s_spansEnabled)
        {
            foreach (PerfSpan span in PerfSpan.All)
                span.WriteDefinition();
        }
    }

    /// <summary>The keywords of the source.</summary>
    public static class Keywords
    {
        /// <summary>Span definitions and span events.</summary>
        public const EventKeywords Spans = (EventKeywords)0x1;
    }
}
