using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Reflection;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// Watches the runtime's JIT events during warmup: the tier the body's method was last compiled at, when that was
/// received, and when the last re-compilation of any method was received.
/// </summary>
/// <remarks>
/// <para>
/// An in-process <see cref="EventListener"/> on <c>Microsoft-Windows-DotNETRuntime</c> with the JIT keyword at verbose
/// level, which delivers one <c>MethodLoadVerbose</c> event per compiled method with its optimization tier in
/// <c>MethodFlags</c>. Measured on the 2-core VM of docs/ARCHITECTURE.md, "Platform facts": the first listener of a
/// process costs about 21 ms to create (it JIT-compiles the EventSource plumbing), later ones 0.5-1.4 ms; events reach
/// <see cref="OnEventWritten"/> 10-13 ms after the compilation (the runtime's dispatcher delivers them in batches); an idle
/// listener costs no measurable CPU (a 0.5 s spin loop ran the same iterations with and without one).
/// </para>
/// <para>
/// Only the body's own method is judged. Waiting for every method in an instrumented (TieredPGO) tier to reach tier 1
/// does not work: small methods that their callers' tier-1 code inlines are never called again, and stayed
/// instrumented for seconds (the counter reads' <c>GroupRange.get_Count</c>, <c>Span.Slice</c>).
/// </para>
/// <para>
/// Events arrive on the runtime's dispatcher thread; the measuring thread reads the state under a lock between warmup
/// batches. The listener is disposed when its warmup ends, unless the warmup ended without the body's final code: then it
/// watches on through the samples (<see cref="Engine.Warmup.FinishWatching"/>), where it costs nothing while nothing is compiled,
/// and a run in which something is compiled is one that is measured again anyway.
/// </para>
/// </remarks>
internal sealed class JitTierListener : EventListener
{
    private const string RuntimeSourceName = "Microsoft-Windows-DotNETRuntime";

    // JitKeyword (0x10) in the runtime's manifest: MethodLoadVerbose and friends.
    private const EventKeywords JitKeyword = (EventKeywords)0x10;

    // MethodLoadVerbose (all versions share the id). Payload: MethodID, ModuleID, MethodStartAddress, MethodSize,
    // MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID[, ReJITID].
    private const int MethodLoadVerboseEventId = 143;
    private const int MethodIdIndex = 0;
    private const int MethodFlagsIndex = 5;
    private const int MethodNamespaceIndex = 6;
    private const int MethodNameIndex = 7;

    // The runtime's ETW::MethodLog: the optimization tier occupies MethodFlags bits 7-9.
    private const int TierShift = 7;
    private const uint TierMask = 0x7;

    private readonly Lock _sync = new();
    private volatile BodyMethod? _body;
    private JitTier? _bodyTier;
    private long _bodyTierTicks;
    private long _lastRecompilationTicks;

    private JitTierListener()
    {
    }

    private bool IsRuntimeSourceEnabled { get; set; }

    /// <summary>
    /// Starts watching the JIT for <paramref name="body"/>; <see langword="null"/> when the runtime's events are
    /// unavailable.
    /// </summary>
    /// <param name="body">The measured delegate's method.</param>
    /// <returns>A listener to dispose before sampling, or <see langword="null"/>.</returns>
    public static JitTierListener? TryStart(MethodInfo body)
    {
        JitTierListener? listener = null;
        try
        {
            // Resolved before the listener exists: constructing it enables the runtime's JIT events, and a throw after
            // that would leave nothing to dispose them.
            BodyMethod target = BodyMethod.Of(body);
            listener = new JitTierListener { _body = target };
            if (listener.IsRuntimeSourceEnabled)
                return listener;
        }
        catch (Exception e) when (e is InvalidOperationException or NotSupportedException or ArgumentException or EventSourceException)
        {
            // The session could not start: the engine falls back to waiting for the JIT to go quiet.
        }

        // No runtime source (event sources trimmed away with EventSourceSupport=false): the same fallback.
        listener?.Dispose();
        return null;
    }

    /// <summary>What the events showed so far.</summary>
    public JitTierSnapshot Snapshot()
    {
        lock (_sync)
            return new JitTierSnapshot(_bodyTier, _bodyTierTicks, _lastRecompilationTicks);
    }

    /// <inheritdoc/>
    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        // Called from the base constructor for the sources that already exist, before this instance's constructor body
        // and initializers of derived state have run: only enable here.
        if (eventSource.Name == RuntimeSourceName)
        {
            EnableEvents(eventSource, EventLevel.Verbose, JitKeyword);
            IsRuntimeSourceEnabled = true;
        }
    }

    /// <inheritdoc/>
    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (eventData.EventId != MethodLoadVerboseEventId || eventData.Payload is not { Count: > MethodNameIndex } payload)
            return;
        if (payload[MethodIdIndex] is not ulong id || payload[MethodFlagsIndex] is not uint flags)
            return;

        var tier = (JitTier)((flags >> TierShift) & TierMask);
        long now = Stopwatch.GetTimestamp();
        bool isBody = _body is { } body && body.Matches(id, payload[MethodNamespaceIndex] as string, payload[MethodNameIndex] as string);
        lock (_sync)
        {
            if (isBody && tier != JitTier.Unknown)
            {
                _bodyTier = tier;
                _bodyTierTicks = now;
            }

            // Tier-0 compilations are first calls; everything else replaces code that already ran.
            if (tier != JitTier.QuickJitted)
                _lastRecompilationTicks = now;
        }
    }

    /// <summary>The body's method: its runtime handle (the events' MethodID) and, for generic or dynamic code, its names.</summary>
    /// <remarks>A null <paramref name="typeName"/> turns the name match off (a non-generic method always matches by handle).</remarks>
    private sealed class BodyMethod(ulong id, string name, string? typeName)
    {
        public static BodyMethod Of(MethodInfo method)
        {
            ulong id = 0;
            try
            {
                id = (ulong)method.MethodHandle.Value;
            }
            catch (Exception e) when (e is InvalidOperationException or NotSupportedException)
            {
                // A DynamicMethod has no handle: match by name only.
            }

            Type? type = method.DeclaringType;
            string? typeName = type switch
            {
                { IsGenericType: true } => type.GetGenericTypeDefinition().FullName,
                _ when id == 0 || method.IsGenericMethod => type?.FullName ?? "dynamicClass",
                _ => null,
            };
            return new BodyMethod(id, method.Name, typeName);
        }

        // The events report shared generic code under the canonical method's handle and name a generic type with its
        // instantiation, e.g. "Ns.Holder`1[System.Int32]"; a DynamicMethod's type is "dynamicClass".
        public bool Matches(ulong eventId, string? eventNamespace, string? eventName)
        {
            if (id != 0 && eventId == id)
                return true;
            if (typeName is null || eventNamespace is null || !string.Equals(eventName, name, StringComparison.Ordinal))
                return false;
            return eventNamespace.StartsWith(typeName, StringComparison.Ordinal)
                && (eventNamespace.Length == typeName.Length || eventNamespace[typeName.Length] == '[');
        }
    }
}
