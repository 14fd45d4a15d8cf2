namespace Picollo.PerfEvents;

/// <summary>Kernel software events: the <c>config</c> of <see cref="PerfEventType.Software"/> (enum perf_sw_ids).</summary>
public enum PerfSoftwareCounterId : ulong
{
    /// <summary>cpu-clock: wall-clock time on the CPU timer, in ns.</summary>
    CpuClock = 0,

    /// <summary>task-clock: time the task ran, in ns.</summary>
    TaskClock = 1,

    /// <summary>page-faults.</summary>
    PageFaults = 2,

    /// <summary>context-switches (counted in kernel code: reads 0 with exclude_kernel).</summary>
    ContextSwitches = 3,

    /// <summary>cpu-migrations (counted in kernel code: reads 0 with exclude_kernel).</summary>
    CpuMigrations = 4,

    /// <summary>minor-faults.</summary>
    PageFaultsMin = 5,

    /// <summary>major-faults.</summary>
    PageFaultsMaj = 6,

    /// <summary>alignment-faults.</summary>
    AlignmentFaults = 7,

    /// <summary>emulation-faults.</summary>
    EmulationFaults = 8,

    /// <summary>dummy: counts nothing (placeholder for sampling side bands).</summary>
    Dummy = 9,
}
