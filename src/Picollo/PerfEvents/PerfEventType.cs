namespace Picollo.PerfEvents;

/// <summary>The <c>perf_event_attr.type</c> of the generic event families (linux/perf_event.h); PMUs in sysfs have dynamic types.</summary>
public enum PerfEventType : uint
{
    /// <summary>PERF_TYPE_HARDWARE: generalized CPU events.</summary>
    Hardware = 0,

    /// <summary>PERF_TYPE_SOFTWARE: kernel-counted events.</summary>
    Software = 1,

    /// <summary>PERF_TYPE_TRACEPOINT.</summary>
    Tracepoint = 2,

    /// <summary>PERF_TYPE_HW_CACHE: config = cache | op &lt;&lt; 8 | result &lt;&lt; 16.</summary>
    HardwareCache = 3,

    /// <summary>PERF_TYPE_RAW: a model-specific event code.</summary>
    Raw = 4,

    /// <summary>PERF_TYPE_BREAKPOINT.</summary>
    Breakpoint = 5,
}
