namespace Picollo.PerfEvents;

/// <summary>How much of perf_event this process can use.</summary>
public enum PerfEventAvailabilityLevel
{
    /// <summary>No perf event opens (not Linux, no perf events in the kernel, paranoid level, seccomp, …).</summary>
    None,

    /// <summary>Kernel software events open (task-clock, page-faults, …); hardware events do not (typically a VM without a PMU).</summary>
    SoftwareOnly,

    /// <summary>Software and hardware events open.</summary>
    Hardware,
}
