using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Reflection;
using Picollo.Measurement.Conditions;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The tests' own view of the runtime's JIT events, independent of the engine's listener: every compilation of one
/// method, with its tier and the <see cref="Stopwatch"/> timestamp at which the event arrived.
/// </summary>
internal sealed class JitEventRecorder : EventListener
{
    private readonly ConcurrentQueue<(JitTier Tier, long ReceivedTicks)> _events = new();
    private volatile MethodInfo? _method;

    public static JitEventRecorder For(MethodInfo method) => new() { _method = method };

    /// <summary>The method's compilations so far, in arrival order.</summary>
    public IReadOnlyList<(JitTier Tier, long ReceivedTicks)> Events => [.. _events];

    /// <summary>Waits for events still in the runtime's dispatcher (it delivers every 10 ms or so).</summary>
    public static void Drain() => Thread.Sleep(200);

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
            EnableEvents(eventSource, EventLevel.Verbose, (EventKeywords)0x10);
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        // MethodLoadVerbose: MethodID at 0, MethodFlags at 5 with the tier in bits 7-9.
        if (eventData.EventId != 143 || eventData.Payload is not { Count: > 5 } payload || _method is not { } method)
            return;
        if (payload[0] is ulong id && id == (ulong)method.MethodHandle.Value && payload[5] is uint flags)
            _events.Enqueue(((JitTier)((flags >> 7) & 7), Stopwatch.GetTimestamp()));
    }
}
