using Picollo.Counters;
using Picollo.Metrics;
using static Picollo.Interop.Interop;

namespace Picollo.PerfEvents;

/// <summary>
/// A perf_event group (leader + members) whose counters are read together at each sample boundary and
/// recorded into one HDR histogram per counter. Create it with <see cref="Factory"/>.
/// </summary>
/// <remarks>
/// <para>One group, one <c>read()</c> of PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID per
/// <see cref="Read"/>, values matched by event id. When every event is a CPU PMU event, the session targets the
/// calling thread and every mmap'ed page allows it, <see cref="Read"/> uses rdpmc instead (no syscall).</para>
/// <para>Availability policy: an event the machine cannot open (no PMU, permissions, too many events) is not
/// an exception; it is left out of <see cref="Counters"/> and listed in <see cref="UnavailableCounters"/> with
/// the reason and what to do. In user-only mode context-switches and cpu-migrations are unavailable too: the
/// kernel raises them from kernel code, so they would always read 0.</para>
/// <para>Not thread-safe: read, record and dispose from one thread. With the default target (pid 0) the
/// session counts the thread that created it.</para>
/// </remarks>
public sealed partial class PerfEventCounterSession : ICounterSource
{
    private const ulong ReadFormat = PerfEvent.PERF_FORMAT_GROUP | PerfEvent.PERF_FORMAT_TOTAL_TIME_ENABLED
        | PerfEvent.PERF_FORMAT_TOTAL_TIME_RUNNING | PerfEvent.PERF_FORMAT_ID;

    private readonly IPerfEventSyscalls _syscalls;
    private readonly SafePerfEventHandle[] _handles;
    private readonly PerfEventCounter[] _counters;
    private readonly ulong[] _ids;
    private readonly byte[] _buffer;
    private readonly nint[]? _pages;
    private readonly CounterDescriptor[] _descriptors;
    private readonly int[] _descriptorToGroup;
    private readonly int _ownerThreadId;
    private readonly int _leaderFd;
    private PerfEventValue[] _current;
    private PerfEventValue[] _previous;
    private bool _currentValid;
    private bool _previousValid;
    private bool _disposed;
    private string? _noCountersError;

    private PerfEventCounterSession(
        IPerfEventSyscalls syscalls,
        SafePerfEventHandle[] handles,
        PerfEventCounter[] counters,
        ulong[] ids,
        nint[]? pages,
        CounterDescriptor[] descriptors,
        int[] descriptorToGroup,
        bool excludeKernel)
    {
        _syscalls = syscalls;
        _handles = handles;
        _counters = counters;
        _ids = ids;
        _pages = pages;
        _descriptors = descriptors;
        _descriptorToGroup = descriptorToGroup;
        _buffer = new byte[PerfEventGroupReader.BufferSize(counters.Length)];
        _current = new PerfEventValue[counters.Length];
        _previous = new PerfEventValue[counters.Length];
        _ownerThreadId = Environment.CurrentManagedThreadId;
        _leaderFd = handles.Length > 0 ? handles[0].Fd : -1;
        ExcludesKernel = excludeKernel;
        Counters = new PerfEventCounters(counters);
        UnavailableCounters = [.. descriptors.Where(d => !d.IsAvailable)];
    }

    /// <summary>A new builder with the defaults (calling thread, any CPU, user mode, enabled, no counter).</summary>
    public static PerfEventCounterSessionBuilder Factory => new();

    /// <summary>The counters that count, in group order, with typed access (<c>Counters.Hardware.CpuCycles</c>).</summary>
    public PerfEventCounters Counters { get; }

    /// <summary>The requested events that could not be opened, each with its <see cref="CounterDescriptor.UnavailableReason"/>.</summary>
    public IReadOnlyList<CounterDescriptor> UnavailableCounters { get; }

    /// <summary>Every requested event (deduplicated) in request order, available or not: the <see cref="ICounterSource"/> view.</summary>
    public IReadOnlyList<CounterDescriptor> Descriptors => _descriptors;

    /// <summary>Whether kernel-mode execution is excluded (<see cref="PerfEventCounterSessionBuilder.WithKernel"/> false).</summary>
    public bool ExcludesKernel { get; }

    /// <summary>
    /// Whether <see cref="Read"/> may use rdpmc: every event is a CPU PMU event whose page is mapped and the
    /// session counts its creating thread. Each read still checks the pages and falls back to read() when
    /// the kernel does not allow rdpmc at that moment.
    /// </summary>
    public bool IsRdpmcPossible => _pages is not null;

    /// <summary>The group leader's fd (-1 without counters): what one group read() targets; for the benchmarks' raw-read floor.</summary>
    internal int LeaderFd => _leaderFd;

    /// <summary>The outcome of the last <see cref="Read"/>.</summary>
    public PerfEventReadStatus LastReadStatus { get; private set; }

    /// <summary>Why the last read failed (counters, errno and remedy), or null after a successful read.</summary>
    public string? LastError { get; private set; }

    /// <summary>Reads every counter of the group: the previous values are kept for <see cref="Record"/>'s deltas.</summary>
    /// <param name="forceSyscallRead">
    /// Always use one read() of the group (atomic for the whole group) even when rdpmc is possible (each
    /// counter read separately, some ns apart, but no syscall).
    /// </param>
    /// <returns>How the values were obtained; on a failure the values are not updated and <see cref="LastError"/> explains.</returns>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    public PerfEventReadStatus Read(bool forceSyscallRead = false)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        (_previous, _current) = (_current, _previous);
        _previousValid = _currentValid;
        _currentValid = false;

        if (_counters.Length == 0)
            return Fail(PerfEventReadStatus.NoCounters, _noCountersError ??= "No counter of this session could be opened: " + DescribeUnavailable());

        if (!forceSyscallRead && _pages is not null && Environment.CurrentManagedThreadId == _ownerThreadId && TryReadRdpmc())
        {
            _currentValid = true;
            LastError = null;
            return LastReadStatus = PerfEventReadStatus.Rdpmc;
        }

        PerfGroupReadStatus status = PerfEventGroupReader.Read(_syscalls, _leaderFd, _buffer, _ids, _current, out int errno);
        if (status == PerfGroupReadStatus.Ok)
        {
            _currentValid = true;
            LastError = null;
            return LastReadStatus = PerfEventReadStatus.Syscall;
        }

        return status == PerfGroupReadStatus.EndOfFile
            ? Fail(PerfEventReadStatus.GroupInErrorState, "read() of the group " + GroupNames() + " returned 0 bytes: the pinned group lost its hardware counters "
                + "to another user (another pinned group, the NMI watchdog, a hypervisor) and the kernel put it in error state; nothing is counted. "
                + "Use WithPinned(false) to let the kernel multiplex it, or free the counters.")
            : Fail(PerfEventReadStatus.Failed, DescribeReadFailure(status, errno));
    }

    /// <summary>
    /// Records into each counter's histogram the value between the last two reads (<paramref name="deltas"/>) or
    /// the current cumulative value, scaled for multiplexing (count × enabled / running). A counter that did
    /// not run in the interval is skipped and counted in <see cref="PerfEventCounter.NotCountedSamples"/>.
    /// </summary>
    /// <param name="deltas">Record current − previous (default) rather than the cumulative value.</param>
    /// <returns><see langword="false"/> when nothing could be recorded: the last read (or the one before, for deltas) failed or is missing.</returns>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    public bool Record(bool deltas = true)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!_currentValid || (deltas && !_previousValid))
            return false;

        PerfEventValue[] current = _current;
        PerfEventValue[] previous = _previous;
        for (int i = 0; i < _counters.Length; i++)
        {
            PerfEventCounter counter = _counters[i];
            ulong count = current[i].Count;
            ulong enabled = current[i].Enabled;
            ulong running = current[i].Running;
            if (deltas)
            {
                if (count < previous[i].Count || enabled < previous[i].Enabled || running < previous[i].Running)
                {
                    counter.NotCountedSamples++;
                    continue;
                }

                count -= previous[i].Count;
                enabled -= previous[i].Enabled;
                running -= previous[i].Running;
            }

            if (!PerfEventValue.TryScale(count, enabled, running, out ulong scaled))
            {
                counter.NotCountedSamples++;
                continue;
            }

            counter.Histogram.Record(scaled);
            counter.LastValue = scaled;
            counter.MultiplexingRatio = running >= enabled ? 1.0 : (double)running / enabled;
        }

        return true;
    }

    /// <summary>Empties every counter's histogram (e.g. after a warmup); the kernel counts are untouched.</summary>
    public void Reset()
    {
        foreach (PerfEventCounter counter in _counters)
        {
            counter.Histogram.Reset();
            counter.NotCountedSamples = 0;
        }
    }

    /// <summary>Starts counting the whole group (ioctl PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP).</summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Enable() => GroupIoctl(PerfEvent.PERF_EVENT_IOC_ENABLE, "enable");

    /// <summary>Stops counting the whole group (ioctl PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP).</summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Disable() => GroupIoctl(PerfEvent.PERF_EVENT_IOC_DISABLE, "disable");

    /// <summary>
    /// Reads the group and writes the cumulative, multiplexing-scaled count of every descriptor (0 for an
    /// unavailable one, whose descriptor says so). Allocates nothing. It is a <see cref="Read"/>: it shifts
    /// the previous/current values that <see cref="Record"/> uses, so drive a session through one API or the other.
    /// </summary>
    /// <param name="destination">At least <see cref="Descriptors"/>.Count long.</param>
    /// <exception cref="InvalidOperationException">The group read failed (e.g. a pinned group in error state): never reported as zeros.</exception>
    public void ReadCumulative(Span<ulong> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, _descriptors.Length, nameof(destination));
        PerfEventReadStatus status = Read();
        if (status is PerfEventReadStatus.GroupInErrorState or PerfEventReadStatus.Failed)
            throw new InvalidOperationException(LastError);

        for (int i = 0; i < _descriptors.Length; i++)
        {
            int g = _descriptorToGroup[i];
            destination[i] = g >= 0 && PerfEventValue.TryScale(_current[g].Count, _current[g].Enabled, _current[g].Running, out ulong scaled) ? scaled : 0;
        }
    }

    /// <summary>Unmaps every page and closes every fd.</summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        foreach (SafePerfEventHandle handle in _handles)
            handle.Dispose();
    }

    /// <summary>Opens the group through <paramref name="syscalls"/> (the real kernel, or a fake one in tests).</summary>
    internal static PerfEventCounterSession Open(in PerfEventCounterSessionBuilder options, IPerfEventSyscalls syscalls)
    {
        bool excludeKernel = !options.IncludeKernel;
        ulong modeFlags = excludeKernel ? PerfEventAttr.FlagExcludeKernel | PerfEventAttr.FlagExcludeHv : 0;

        var descriptors = new List<CounterDescriptor>();
        var descriptorToGroup = new List<int>();
        var handles = new List<SafePerfEventHandle>();
        var specs = new List<PerfEventSpec>();
        var ids = new List<ulong>();
        var seen = new HashSet<(uint, ulong, ulong, ulong)>();
        try
        {
            foreach (PerfEventSpec spec in options.Events)
            {
                if (!seen.Add((spec.Type, spec.Config, spec.Config1, spec.Config2)))
                    continue;

                string? reason = ReasonNotToOpen(spec, excludeKernel, handles.Count);
                int groupIndex = -1;
                if (reason is null)
                {
                    bool leader = handles.Count == 0;
                    ulong flags = modeFlags;
                    if (leader && options.Pinned)
                        flags |= PerfEventAttr.FlagPinned; // the kernel rejects pinned members (EINVAL): pinning is a group property
                    // The leader always starts disabled and the whole group is enabled by one ioctl once every
                    // member is in: a member added to a group that is already counting on the calling thread
                    // is not scheduled in until the thread's next context switch (observed on 6.18 with a
                    // task-clock leader and a page-faults member: the member read 0), which is also why
                    // perf stat opens disabled. Members follow their leader's state.
                    if (leader)
                        flags |= PerfEventAttr.FlagDisabled;
                    PerfEventAttr attr = PerfEventAttr.ForCounting(spec, ReadFormat, flags);
                    int fd = syscalls.Open(attr, options.Pid, options.Cpu, leader ? -1 : handles[0].Fd, PerfEvent.PERF_FLAG_FD_CLOEXEC);
                    if (fd < 0)
                    {
                        reason = PerfEventDiagnostics.Explain(-fd, spec, excludeKernel);
                    }
                    else
                    {
                        var handle = new SafePerfEventHandle(fd, syscalls);
                        int result = syscalls.GetId(fd, out ulong id);
                        if (result < 0)
                        {
                            handle.Dispose();
                            reason = spec.Name + ": ioctl(PERF_EVENT_IOC_ID) failed with " + Errno.Describe(-result)
                                + ": the kernel is older than 3.12 or the fd is not a perf event; the group cannot be read by id.";
                        }
                        else
                        {
                            groupIndex = handles.Count;
                            handles.Add(handle);
                            specs.Add(spec);
                            ids.Add(id);
                        }
                    }
                }

                descriptors.Add(new CounterDescriptor(spec.Name, spec.Unit, spec.Kind, reason));
                descriptorToGroup.Add(groupIndex);
            }

            if (options.Enabled && handles.Count > 0)
            {
                int result = syscalls.Ioctl(handles[0].Fd, PerfEvent.PERF_EVENT_IOC_ENABLE, PerfEvent.PERF_IOC_FLAG_GROUP);
                if (result < 0)
                {
                    string reason = "ioctl(PERF_EVENT_IOC_ENABLE) of the group failed with " + Errno.Describe(-result) + ": nothing would count.";
                    foreach (SafePerfEventHandle handle in handles)
                        handle.Dispose();
                    handles.Clear();
                    specs.Clear();
                    ids.Clear();
                    for (int i = 0; i < descriptors.Count; i++)
                    {
                        if (descriptorToGroup[i] >= 0)
                        {
                            descriptors[i] = descriptors[i] with { UnavailableReason = descriptors[i].Name + ": " + reason };
                            descriptorToGroup[i] = -1;
                        }
                    }
                }
            }

            nint[]? pages = MapPagesForRdpmc(options, syscalls, handles, specs);
            // A default(PerfEventCounterSessionBuilder) has a zeroed histogram builder (max trackable 0): use the defaults.
            HdrHistogramBuilder histogram = options.Histogram == default ? HdrHistogram.Factory : options.Histogram;
            var counters = new PerfEventCounter[handles.Count];
            for (int i = 0; i < counters.Length; i++)
            {
                CounterDescriptor descriptor = descriptors[descriptorToGroup.IndexOf(i)];
                counters[i] = new PerfEventCounter(specs[i], descriptor, histogram.Create(), i);
            }

            return new PerfEventCounterSession(syscalls, [.. handles], counters, [.. ids], pages, [.. descriptors], [.. descriptorToGroup], excludeKernel);
        }
        catch
        {
            foreach (SafePerfEventHandle handle in handles)
                handle.Dispose();
            throw;
        }
    }

    /// <summary>Events that must not be opened in this mode, with the reason; null to try.</summary>
    private static string? ReasonNotToOpen(PerfEventSpec spec, bool excludeKernel, int opened)
    {
        if (excludeKernel && PerfEventAvailability.CountsOnlyInKernel(spec, out string? kernelOnly))
            return kernelOnly;

        return opened >= PerfEventGroupReader.MaxEvents
            ? spec.Name + ": a session holds at most " + PerfEventGroupReader.MaxEvents.ToString(System.Globalization.CultureInfo.InvariantCulture) + " events; use a second session."
            : null;
    }

    /// <summary>
    /// Maps the first page of every event when rdpmc can ever apply: self-monitoring (pid 0, the kernel
    /// only exposes the calling thread's counters to rdpmc) and CPU PMU events only (software, tracepoint
    /// and breakpoint events never get a hardware counter index, so one of them forces read() for the
    /// whole group anyway and mapping would only cost fds' worth of address space).
    /// </summary>
    private static nint[]? MapPagesForRdpmc(in PerfEventCounterSessionBuilder options, IPerfEventSyscalls syscalls, List<SafePerfEventHandle> handles, List<PerfEventSpec> specs)
    {
        if (options.Pid != 0 || handles.Count == 0)
            return null;
        foreach (PerfEventSpec spec in specs)
        {
            if (spec.Type is (uint)PerfEventType.Software or (uint)PerfEventType.Tracepoint or (uint)PerfEventType.Breakpoint)
                return null;
        }

        var pages = new nint[handles.Count];
        for (int i = 0; i < pages.Length; i++)
        {
            if (handles[i].MapFirstPage((nuint)Environment.SystemPageSize) != 0)
                return null; // no fast path; the mapped pages are released with their handles
            pages[i] = handles[i].Page;
        }

        return pages;
    }

    private bool TryReadRdpmc() => PerfMmapReader.ReadGroup(_pages, _current) == PerfMmap.Ok;

    private PerfEventReadStatus Fail(PerfEventReadStatus status, string error)
    {
        LastError = error;
        return LastReadStatus = status;
    }

    private string DescribeReadFailure(PerfGroupReadStatus status, int errno)
    {
        string group = "read() of the group " + GroupNames();
        return status switch
        {
            PerfGroupReadStatus.Failed when errno == Errno.ENOSPC =>
                group + " failed with " + Errno.Describe(errno) + ": the kernel has more events in this group than the session opened; recreate the session.",
            PerfGroupReadStatus.Failed when errno == Errno.EINTR =>
                group + " was interrupted by signals " + PerfEventGroupReader.MaxInterruptedRetries.ToString(System.Globalization.CultureInfo.InvariantCulture) + " times in a row (EINTR); retry the read.",
            PerfGroupReadStatus.Failed => group + " failed with " + Errno.Describe(errno) + ".",
            PerfGroupReadStatus.Truncated => group + " returned fewer bytes than its layout needs.",
            PerfGroupReadStatus.CountMismatch => group + " reported another number of events than the session opened.",
            PerfGroupReadStatus.UnknownId => group + " reported an event id the session did not open.",
            _ => group + " reported the same event id twice.",
        };
    }

    private string GroupNames() => "[" + string.Join(", ", _counters.Select(c => c.Spec.Name)) + "]";

    private string DescribeUnavailable() => UnavailableCounters.Count == 0
        ? "no event was requested."
        : string.Join(" ", UnavailableCounters.Select(d => d.UnavailableReason));

    private void GroupIoctl(ulong request, string what)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_handles.Length == 0)
            return;
        int result = _syscalls.Ioctl(_leaderFd, request, PerfEvent.PERF_IOC_FLAG_GROUP);
        if (result < 0)
            throw new InvalidOperationException("Could not " + what + " the group " + GroupNames() + ": ioctl failed with " + Errno.Describe(-result) + ".");
    }
}
