using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Picollo.Metrics;

namespace Picollo.Observation;

/// <summary>
/// One entered <see cref="PerfSpan"/>: the counters' values at its enter. Disposing it reads them again and records the
/// differences. A struct, so <c>using (span.Enter()) { … }</c> allocates nothing.
/// </summary>
/// <remarks>
/// Dispose it once, on the thread that entered it: a scope disposed on another thread (an <c>await</c> that resumed
/// elsewhere) records nothing and is counted in <see cref="PerfSpan.ThreadHops"/>, because per-thread counters (allocated
/// bytes, perf_event counters of the entering thread) say nothing about a flow that ran on two threads. A
/// <see langword="default"/> scope, or one entered while <see cref="PerfSpan.Enabled"/> is false, does nothing.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public struct PerfSpanScope : IDisposable
{
    internal PerfSpan? _span;
    internal SpanThread? _thread;
    internal HdrHistogramWriter[]? _writers;
    internal ulong _tscStart;
    internal long _allocatedStart;
    internal int _perfFrame;
    internal ulong _perfStamp; // 0: the perf_event counters were not read at enter

    /// <summary>The span entered, or <see langword="null"/> for a scope that records nothing (disposed, disabled, default).</summary>
    public readonly PerfSpan? Span => _span;

    /// <summary>Reads the counters and records the span's values; a second call does nothing.</summary>
    // Compiled optimized once, never tiered: a tier transition (call counting, PGO instrumentation) of a method that runs
    // between a span's reads would be the runtime's work, and its allocations, counted as the span's.
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Dispose()
    {
        PerfSpan? span = _span;
        if (span is null)
            return;
        _span = null;
        span.Exit(ref this);
    }
}
