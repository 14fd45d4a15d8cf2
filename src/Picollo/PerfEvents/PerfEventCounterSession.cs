using Picollo.Counters;

namespace Picollo.PerfEvents;

/// <summary>
/// A perf_event group (leader + members) whose counters are read together at each sample boundary and
/// recorded into one HDR histogram per counter. Create it with <see cref="Factory"/>.
/// </summary>
/// <remarks>
/// <para>One group, one <c>read()</c> of PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID per
/// <see cref="Read"/>, values matched by event id. When every event is a CPU PMU event, the session targets the
/// calling thread and every mmap'ed page allows it, <see cref="Read"/> uses rdpmc instead (no syscall).</para>
/// <para>Hybrid CPUs (<c>cpu_core</c>/<c>cpu_atom</c>): a generic hardware or cache counter is one event per core PMU,
/// summed into one <see cref="PerfEventCounter"/>. The kernel refuses a group mixing two core PMUs, so the session
/// holds one group per core PMU and a read costs one <c>read()</c> per core PMU (rdpmc rarely applies: the event of
/// the core type the thread is not on has no counter index). A core type that cannot be opened leaves the counter
/// counting the others, with <see cref="CounterDescriptor.PartialReason"/> saying which.</para>
/// <para>Values are raw counts (integers) extrapolated for multiplexing; sysfs <c>.scale</c>/<c>.unit</c> are carried by
/// <see cref="CounterDescriptor.Scale"/>/<see cref="CounterDescriptor.Unit"/> for reports to convert.</para>
/// <para>Availability policy: an event the machine cannot open (no PMU, permissions, too many events) is not
/// an exception; it is left out of <see cref="Counters"/> and listed in <see cref="UnavailableCounters"/> with
/// the reason and what to do. In user-only mode context-switches and cpu-migrations are unavailable too: the
/// kernel raises them from kernel code, so they would always read 0.</para>
/// <para>Not thread-safe: read, record and dispose from one thread. With the default target (pid 0) the
/// session counts the thread that created it.</para>
/// </remarks>
public sealed partial class PerfEventCounterSession : ICounterSource
{
    private readonly IPerfEventSyscalls _syscalls;
    private readonly SafePerfEventHandle[] _handles;
    private readonly PerfEventCounter[] _counters;
    private readonly ulong[] _ids;
    private readonly PerfEventSpec[] _specs;
    private readonly GroupRange[] _groups;
    private readonly byte[] _buffer;
    private readonly nint[]? _pages;
    private readonly CounterDescriptor[] _descriptors;
    private readonly int[] _descriptorToCounter;
    private readonly int _ownerThreadId;
    private Interop.PerfEventValue[] _current;
    private Interop.PerfEventValue[] _previous;
    private bool _currentValid;
    private bool _previousValid;
    private bool _disposed;
    private string? _noCountersError;

    /// <summary>A session over the events <see cref="PerfEventOpener"/> opened and laid out group after group.</summary>
    internal PerfEventCounterSession(
        IPerfEventSyscalls syscalls,
        SafePerfEventHandle[] handles,
        PerfEventCounter[] counters,
        ulong[] ids,
        PerfEventSpec[] specs,
        GroupRange[] groups,
        nint[]? pages,
        CounterDescriptor[] descriptors,
        int[] descriptorToCounter,
        bool excludeKernel)
    {
        _syscalls = syscalls;
        _handles = handles;
        _counters = counters;
        _ids = ids;
        _specs = specs;
        _groups = groups;
        _pages = pages;
        _descriptors = descriptors;
        _descriptorToCounter = descriptorToCounter;
        _buffer = new byte[PerfEventGroupReader.BufferSize(groups.Length == 0 ? 0 : groups.Max(static g => g.Count))];
        _current = new Interop.PerfEventValue[handles.Length];
        _previous = new Interop.PerfEventValue[handles.Length];
        _ownerThreadId = Environment.CurrentManagedThreadId;
        ExcludesKernel = excludeKernel;
        Counters = new PerfEventCounters(counters);
        UnavailableCounters = [.. descriptors.Where(d => !d.IsAvailable)];
    }

    /// <summary>A new builder with the defaults (calling thread, any CPU, user mode, enabled, no counter).</summary>
    public static PerfEventCounterSessionBuilder Factory => new();

    /// <summary>The counters that count, in request order, with typed access (<c>Counters.Hardware.CpuCycles</c>).</summary>
    public PerfEventCounters Counters { get; }

    /// <summary>The requested events that could not be opened, each with its <see cref="CounterDescriptor.UnavailableReason"/>.</summary>
    public IReadOnlyList<CounterDescriptor> UnavailableCounters { get; }

    /// <summary>Every requested counter (deduplicated) in request order, available or not: the <see cref="ICounterSource"/> view.</summary>
    public IReadOnlyList<CounterDescriptor> Descriptors => _descriptors;

    /// <summary>Whether kernel-mode execution is excluded (<see cref="PerfEventCounterSessionBuilder.WithKernel"/> false).</summary>
    public bool ExcludesKernel { get; }

    /// <summary>
    /// Whether <see cref="Read"/> may use rdpmc: every event is a CPU PMU event whose page is mapped and the
    /// session counts its creating thread. Each read still checks the pages and falls back to read() when
    /// the kernel does not allow rdpmc at that moment.
    /// </summary>
    public bool IsRdpmcPossible => _pages is not null;

    /// <summary>
    /// The first group leader's fd (-1 without counters): what one group read() targets; for the benchmarks' raw-read floor.
    /// </summary>
    internal int LeaderFd => _groups.Length > 0 ? _groups[0].LeaderFd : -1;

    /// <summary>The outcome of the last <see cref="Read"/>.</summary>
    public PerfEventReadStatus LastReadStatus { get; private set; }

    /// <summary>Why the last read failed (counters, errno and remedy), or null after a successful read.</summary>
    public string? LastError { get; private set; }

    /// <summary>
    /// Starts counting the whole group, each group on a hybrid CPU (ioctl PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP).
    /// </summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Enable() => GroupIoctl(Interop.PerfEvent.PERF_EVENT_IOC_ENABLE, "enable");

    /// <summary>
    /// Stops counting the whole group, each group on a hybrid CPU (ioctl PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP).
    /// </summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Disable() => GroupIoctl(Interop.PerfEvent.PERF_EVENT_IOC_DISABLE, "disable");

    /// <summary>Unmaps every page and closes every fd.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        foreach (SafePerfEventHandle handle in _handles)
            handle.Dispose();
    }

    private string GroupNames(GroupRange group) =>
        "[" + string.Join(", ", _specs.Skip(group.Start).Take(group.Count).Select(static s => s.Name)) + "]";

    private void GroupIoctl(ulong request, string what)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        // One ioctl per group: on a hybrid CPU the core PMUs' groups start or stop a few µs apart, not atomically.
        foreach (GroupRange group in _groups)
        {
            int result = _syscalls.Ioctl(group.LeaderFd, request, Interop.PerfEvent.PERF_IOC_FLAG_GROUP);
            if (result < 0)
            {
                throw new InvalidOperationException(
                    "Could not " + what + " the group " + GroupNames(group) + ": ioctl failed with "
                    + Interop.Errno.Describe(-result) + ".");
            }
        }
    }

    /// <summary>One kernel group in the session's arrays: its leader and its events' slice.</summary>
    internal readonly record struct GroupRange(int LeaderFd, int Start, int Count);
}
