using System.Runtime.CompilerServices;

namespace Picollo.Observation;

/// <summary>The perf_event values a span read at its enter, carried in the scope itself (no per-thread stack to unwind).</summary>
[InlineArray(PerfSpan.MaxPerfCounters)]
internal struct SpanStartValues
{
    private ulong _element;
}
