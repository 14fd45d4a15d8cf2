namespace Picollo.PerfEvents;

/// <summary>Typed access to the software counters of a session (<c>Counters.Software.TaskClock</c>).</summary>
public sealed class PerfSoftwareCounters
{
    private readonly PerfEventCounters _counters;

    internal PerfSoftwareCounters(PerfEventCounters counters) => _counters = counters;

    /// <summary>The counter of <paramref name="id"/>, or <see langword="null"/> when the session does not count it.</summary>
    /// <param name="id">The event.</param>
    public PerfEventCounter? this[PerfSoftwareCounterId id] => _counters.Find(PerfEventType.Software, (ulong)id);

    /// <summary>cpu-clock: wall-clock time on the CPU timer, in ns; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? CpuClock => this[PerfSoftwareCounterId.CpuClock];

    /// <summary>task-clock: time the task ran, in ns; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? TaskClock => this[PerfSoftwareCounterId.TaskClock];

    /// <summary>page-faults; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? PageFaults => this[PerfSoftwareCounterId.PageFaults];

    /// <summary>
    /// context-switches (counted in kernel code: reads 0 with exclude_kernel); <see langword="null"/> when the session does not count it.
    /// </summary>
    public PerfEventCounter? ContextSwitches => this[PerfSoftwareCounterId.ContextSwitches];

    /// <summary>
    /// cpu-migrations (counted in kernel code: reads 0 with exclude_kernel); <see langword="null"/> when the session does not count it.
    /// </summary>
    public PerfEventCounter? CpuMigrations => this[PerfSoftwareCounterId.CpuMigrations];

    /// <summary>minor-faults; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? PageFaultsMin => this[PerfSoftwareCounterId.PageFaultsMin];

    /// <summary>major-faults; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? PageFaultsMaj => this[PerfSoftwareCounterId.PageFaultsMaj];

    /// <summary>alignment-faults; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? AlignmentFaults => this[PerfSoftwareCounterId.AlignmentFaults];

    /// <summary>emulation-faults; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? EmulationFaults => this[PerfSoftwareCounterId.EmulationFaults];
}
