using System.Collections.Immutable;
using Picollo.Counters;
using Picollo.Metrics;

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
    private const ulong ReadFormat = Interop.PerfEvent.PERF_FORMAT_GROUP | Interop.PerfEvent.PERF_FORMAT_TOTAL_TIME_ENABLED
        | Interop.PerfEvent.PERF_FORMAT_TOTAL_TIME_RUNNING | Interop.PerfEvent.PERF_FORMAT_ID;

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

    private PerfEventCounterSession(
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

    /// <summary>The first group leader's fd (-1 without counters): what one group read() targets; for the benchmarks' raw-read floor.</summary>
    internal int LeaderFd => _groups.Length > 0 ? _groups[0].LeaderFd : -1;

    /// <summary>The outcome of the last <see cref="Read"/>.</summary>
    public PerfEventReadStatus LastReadStatus { get; private set; }

    /// <summary>Why the last read failed (counters, errno and remedy), or null after a successful read.</summary>
    public string? LastError { get; private set; }

    /// <summary>Reads every counter of the group (of each group, on a hybrid CPU): the previous values are kept for <see cref="Record"/>'s deltas.</summary>
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

        // One read() per group: one for the whole session, or one per core PMU on a hybrid CPU (see GroupFor).
        for (int g = 0; g < _groups.Length; g++)
        {
            GroupRange group = _groups[g];
            PerfGroupReadStatus status = PerfEventGroupReader.Read(
                _syscalls,
                group.LeaderFd,
                _buffer.AsSpan(0, PerfEventGroupReader.BufferSize(group.Count)),
                _ids.AsSpan(group.Start, group.Count),
                _current.AsSpan(group.Start, group.Count),
                out int errno);
            if (status != PerfGroupReadStatus.Ok)
            {
                return status == PerfGroupReadStatus.EndOfFile
                    ? Fail(PerfEventReadStatus.GroupInErrorState, "read() of the group " + GroupNames(group) + " returned 0 bytes: the pinned group lost its hardware counters "
                        + "to another user (another pinned group, the NMI watchdog, a hypervisor) and the kernel put it in error state; nothing is counted. "
                        + "Use WithPinned(false) to let the kernel multiplex it, or free the counters.")
                    : Fail(PerfEventReadStatus.Failed, DescribeReadFailure(group, status, errno));
            }
        }

        _currentValid = true;
        LastError = null;
        return LastReadStatus = PerfEventReadStatus.Syscall;
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

        foreach (PerfEventCounter counter in _counters)
        {
            if (!counter.TryMeasure(_current, _previous, deltas, out ulong value, out double ratio))
            {
                counter.NotCountedSamples++;
                continue;
            }

            counter.Histogram.Record(value);
            counter.LastValue = value;
            counter.MultiplexingRatio = ratio;
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

    /// <summary>Starts counting the whole group, each group on a hybrid CPU (ioctl PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP).</summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Enable() => GroupIoctl(Interop.PerfEvent.PERF_EVENT_IOC_ENABLE, "enable");

    /// <summary>Stops counting the whole group, each group on a hybrid CPU (ioctl PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP).</summary>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    /// <exception cref="InvalidOperationException">The kernel refused; the message has the errno.</exception>
    public void Disable() => GroupIoctl(Interop.PerfEvent.PERF_EVENT_IOC_DISABLE, "disable");

    /// <summary>
    /// Reads the group and writes the cumulative, multiplexing-scaled count of every descriptor (0 for an
    /// unavailable one, whose descriptor says so). Allocates nothing. It is a <see cref="Read"/>: it shifts
    /// the previous/current values that <see cref="Record"/> uses, so drive a session through one API or the other.
    /// Each counter's <see cref="PerfEventCounter.MultiplexingRatio"/> becomes its ratio since the session opened.
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
            int c = _descriptorToCounter[i];
            if (c >= 0 && _counters[c].TryMeasure(_current, default, deltas: false, out ulong value, out double ratio))
            {
                destination[i] = value;
                // Cumulative since the session opened: what a measurement engine reports for its whole run.
                _counters[c].MultiplexingRatio = ratio;
            }
            else
            {
                destination[i] = 0;
            }
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

    /// <summary>Opens the groups through <paramref name="syscalls"/> (the real kernel, or a fake one in tests).</summary>
    internal static PerfEventCounterSession Open(in PerfEventCounterSessionBuilder options, IPerfEventSyscalls syscalls)
    {
        bool excludeKernel = !options.IncludeKernel;
        ulong modeFlags = excludeKernel ? Interop.PerfEventAttr.FlagExcludeKernel | Interop.PerfEventAttr.FlagExcludeHv : 0;

        var requests = new List<PerfEventCounterRequest>();
        foreach (PerfEventCounterRequest request in options.Requests)
        {
            if (!requests.Exists(request.OpensSameEventsAs))
                requests.Add(request);
        }

        var groups = new List<OpenGroup>();
        var opened = new OpenEvent?[requests.Count][];
        var reasons = new string?[requests.Count][];
        int openedCount = 0;
        try
        {
            for (int r = 0; r < requests.Count; r++)
            {
                ImmutableArray<PerfEventSpec> events = requests[r].Events;
                opened[r] = new OpenEvent?[events.Length];
                reasons[r] = new string?[events.Length];
                for (int e = 0; e < events.Length; e++)
                {
                    PerfEventSpec spec = events[e];
                    string? reason = ReasonNotToOpen(spec, excludeKernel, openedCount);
                    if (reason is null)
                    {
                        OpenGroup group = GroupFor(groups, spec);
                        reason = OpenInto(group, spec, options, modeFlags, excludeKernel, syscalls, out OpenEvent? added);
                        if (added is not null)
                        {
                            if (!groups.Contains(group))
                                groups.Add(group);
                            opened[r][e] = added;
                            openedCount++;
                        }
                    }

                    reasons[r][e] = reason;
                }
            }

            string? enableFailure = null;
            if (options.Enabled)
            {
                foreach (OpenGroup group in groups)
                {
                    int result = syscalls.Ioctl(group.Events[0].Handle.Fd, Interop.PerfEvent.PERF_EVENT_IOC_ENABLE, Interop.PerfEvent.PERF_IOC_FLAG_GROUP);
                    if (result < 0)
                    {
                        enableFailure = "ioctl(PERF_EVENT_IOC_ENABLE) of the group failed with " + Interop.Errno.Describe(-result) + ": nothing would count.";
                        foreach (OpenGroup g in groups)
                            g.Events.ForEach(static ev => ev.Handle.Dispose());
                        groups.Clear();
                        break;
                    }
                }
            }

            // The session's arrays list the events group after group, so each group read fills one contiguous slice.
            var handles = new List<SafePerfEventHandle>();
            var specs = new List<PerfEventSpec>();
            var ids = new List<ulong>();
            var ranges = new GroupRange[groups.Count];
            for (int g = 0; g < groups.Count; g++)
            {
                ranges[g] = new GroupRange(groups[g].Events[0].Handle.Fd, handles.Count, groups[g].Events.Count);
                foreach (OpenEvent ev in groups[g].Events)
                {
                    ev.Index = handles.Count;
                    handles.Add(ev.Handle);
                    specs.Add(ev.Spec);
                    ids.Add(ev.Id);
                }
            }

            nint[]? pages = MapPagesForRdpmc(options, syscalls, handles, specs);
            // A default(PerfEventCounterSessionBuilder) has a zeroed histogram builder (max trackable 0): use the defaults.
            HdrHistogramBuilder histogram = options.Histogram == default ? HdrHistogram.Factory : options.Histogram;
            var descriptors = new CounterDescriptor[requests.Count];
            var descriptorToCounter = new int[requests.Count];
            var counters = new List<PerfEventCounter>();
            for (int r = 0; r < requests.Count; r++)
            {
                PerfEventCounterRequest request = requests[r];
                PerfEventSpec identity = request.Identity;
                int[] indices = [.. opened[r].OfType<OpenEvent>().Select(static ev => ev.Index)];
                string? unavailable = indices.Length == 0
                    ? string.Join(" ", reasons[r].OfType<string>())
                    : enableFailure is null ? null : identity.Name + ": " + enableFailure;
                string? partial = unavailable is null && indices.Length < request.Events.Length ? DescribeMissing(request, reasons[r]) : null;
                descriptors[r] = new CounterDescriptor(identity.Name, identity.Unit, identity.Kind, unavailable, identity.Scale, partial);
                descriptorToCounter[r] = -1;
                if (unavailable is null)
                {
                    descriptorToCounter[r] = counters.Count;
                    PerfEventSpec[] members = [.. opened[r].OfType<OpenEvent>().Select(static ev => ev.Spec)];
                    counters.Add(new PerfEventCounter(identity, members, indices, request.EventsShareTime, descriptors[r], histogram.Create()));
                }
            }

            return new PerfEventCounterSession(syscalls, [.. handles], [.. counters], [.. ids], [.. specs], ranges, pages, descriptors, descriptorToCounter, excludeKernel);
        }
        catch
        {
            foreach (OpenGroup group in groups)
                group.Events.ForEach(static ev => ev.Handle.Dispose());
            throw;
        }
    }

    /// <summary>
    /// The group an event joins: one group per hardware PMU, so a session on an ordinary CPU has one group and one
    /// read(). The kernel refuses a group mixing hardware events of different PMUs (EINVAL: "Don't allow group of
    /// multiple hw events from different pmus" in kernel/events/core.c; <c>perf stat</c> likewise splits
    /// <c>{cpu_core/cycles/,cpu_atom/cycles/}</c> with "WARNING: events in group from different hybrid PMUs!"), so
    /// each core PMU of a hybrid CPU, and each other PMU such as <c>power</c> or an uncore PMU, gets its own group,
    /// read with its own read(). Software events join any group (the kernel allows them in a hardware group), and a
    /// hardware event may take over a group holding only software events (the kernel moves such a group into the
    /// hardware context).
    /// </summary>
    private static OpenGroup GroupFor(List<OpenGroup> groups, PerfEventSpec spec)
    {
        string? pmu = HardwarePmuOf(spec);
        if (pmu is null)
            return groups.Count > 0 ? groups[0] : new OpenGroup(null);
        return groups.Find(g => g.HardwarePmu == pmu)
            ?? groups.Find(static g => g.HardwarePmu is null && g.Events.TrueForAll(static ev => IsSoftwareContext(ev.Spec)))
            ?? new OpenGroup(pmu);
    }

    /// <summary>
    /// The PMU whose counters an event needs, or <see langword="null"/> for events of the software context. Generic
    /// hardware, cache and raw events without a PMU name run on the core PMU, spelled <c>cpu</c> in sysfs.
    /// </summary>
    private static string? HardwarePmuOf(PerfEventSpec spec) =>
        IsSoftwareContext(spec) ? null : spec.Pmu.Length == 0 ? "cpu" : spec.Pmu;

    /// <summary>Opens one event into <paramref name="group"/> (as its leader when it is empty); the reason when it cannot.</summary>
    private static string? OpenInto(OpenGroup group, PerfEventSpec spec, in PerfEventCounterSessionBuilder options, ulong modeFlags, bool excludeKernel, IPerfEventSyscalls syscalls, out OpenEvent? added)
    {
        added = null;
        bool leader = group.Events.Count == 0;
        ulong flags = modeFlags;
        if (leader && options.Pinned)
            flags |= Interop.PerfEventAttr.FlagPinned; // the kernel rejects pinned members (EINVAL): pinning is a group property
        // The leader always starts disabled and the whole group is enabled by one ioctl once every
        // member is in: a member added to a group that is already counting on the calling thread
        // is not scheduled in until the thread's next context switch (observed on 6.18 with a
        // task-clock leader and a page-faults member: the member read 0), which is also why
        // perf stat opens disabled. Members follow their leader's state.
        if (leader)
            flags |= Interop.PerfEventAttr.FlagDisabled;
        Interop.PerfEventAttr attr = spec.CountingAttr(ReadFormat, flags);
        int fd = syscalls.Open(attr, options.Pid, options.Cpu, leader ? -1 : group.Events[0].Handle.Fd, Interop.PerfEvent.PERF_FLAG_FD_CLOEXEC);
        if (fd < 0)
            return PerfEventDiagnostics.Explain(-fd, spec, excludeKernel);

        var handle = new SafePerfEventHandle(fd, syscalls);
        int result = syscalls.GetId(fd, out ulong id);
        if (result < 0)
        {
            handle.Dispose();
            return spec.Name + ": ioctl(PERF_EVENT_IOC_ID) failed with " + Interop.Errno.Describe(-result)
                + ": the kernel is older than 3.12 or the fd is not a perf event; the group cannot be read by id.";
        }

        if (group.HardwarePmu is null && HardwarePmuOf(spec) is { } pmu)
            group.HardwarePmu = pmu; // a software-only group taken over by a hardware event
        added = new OpenEvent(handle, spec, id);
        group.Events.Add(added);
        return null;
    }

    /// <summary>What a counter summing several events misses, naming the core type on a hybrid CPU.</summary>
    private static string DescribeMissing(PerfEventCounterRequest request, string?[] reasons)
    {
        var missing = new List<string>();
        for (int e = 0; e < request.Events.Length; e++)
        {
            if (reasons[e] is null)
                continue;
            PerfEventSpec spec = request.Events[e];
            string what = PerfPmu.IsHybridCorePmuName(spec.Pmu)
                ? spec.Name + " is not counted, so time the thread runs on the " + spec.Pmu + " cores is missing: " + reasons[e]
                : spec.Name + " is not counted: " + reasons[e];
            missing.Add(what);
        }

        return request.Identity.Name + " counts only part of what it stands for. " + string.Join(" ", missing);
    }

    /// <summary>Events the kernel schedules in its software context: they never get a hardware counter and may join any group.</summary>
    private static bool IsSoftwareContext(PerfEventSpec spec) =>
        spec.Type is (uint)PerfEventType.Software or (uint)PerfEventType.Tracepoint or (uint)PerfEventType.Breakpoint;

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
            if (IsSoftwareContext(spec))
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

    private bool TryReadRdpmc() => PerfMmapReader.ReadGroup(_pages, _current) == Interop.PerfMmap.Ok;

    private PerfEventReadStatus Fail(PerfEventReadStatus status, string error)
    {
        LastError = error;
        return LastReadStatus = status;
    }

    private string DescribeReadFailure(GroupRange range, PerfGroupReadStatus status, int errno)
    {
        string group = "read() of the group " + GroupNames(range);
        return status switch
        {
            PerfGroupReadStatus.Failed when errno == Interop.Errno.ENOSPC =>
                group + " failed with " + Interop.Errno.Describe(errno) + ": the kernel has more events in this group than the session opened; recreate the session.",
            PerfGroupReadStatus.Failed when errno == Interop.Errno.EINTR =>
                group + " was interrupted by signals " + PerfEventGroupReader.MaxInterruptedRetries.ToString(System.Globalization.CultureInfo.InvariantCulture) + " times in a row (EINTR); retry the read.",
            PerfGroupReadStatus.Failed => group + " failed with " + Interop.Errno.Describe(errno) + ".",
            PerfGroupReadStatus.Truncated => group + " returned fewer bytes than its layout needs.",
            PerfGroupReadStatus.CountMismatch => group + " reported another number of events than the session opened.",
            PerfGroupReadStatus.UnknownId => group + " reported an event id the session did not open.",
            _ => group + " reported the same event id twice.",
        };
    }

    private string GroupNames(GroupRange group) => "[" + string.Join(", ", _specs.Skip(group.Start).Take(group.Count).Select(static s => s.Name)) + "]";

    private string DescribeUnavailable() => UnavailableCounters.Count == 0
        ? "no event was requested."
        : string.Join(" ", UnavailableCounters.Select(d => d.UnavailableReason));

    private void GroupIoctl(ulong request, string what)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        // One ioctl per group: on a hybrid CPU the core PMUs' groups start or stop a few µs apart, not atomically.
        foreach (GroupRange group in _groups)
        {
            int result = _syscalls.Ioctl(group.LeaderFd, request, Interop.PerfEvent.PERF_IOC_FLAG_GROUP);
            if (result < 0)
                throw new InvalidOperationException("Could not " + what + " the group " + GroupNames(group) + ": ioctl failed with " + Interop.Errno.Describe(-result) + ".");
        }
    }

    /// <summary>One kernel group in the session's arrays: its leader and its events' slice.</summary>
    private readonly record struct GroupRange(int LeaderFd, int Start, int Count);

    /// <summary>A group while the session opens: its events in open order, and the hybrid core PMU it belongs to, if any.</summary>
    private sealed class OpenGroup(string? hardwarePmu)
    {
        /// <summary>The hardware PMU whose events the group holds; null while it holds software events only.</summary>
        public string? HardwarePmu { get; set; } = hardwarePmu;

        public List<OpenEvent> Events { get; } = [];
    }

    /// <summary>An opened event and, once the groups are laid out, its index in the session's arrays.</summary>
    private sealed class OpenEvent(SafePerfEventHandle handle, PerfEventSpec spec, ulong id)
    {
        public SafePerfEventHandle Handle { get; } = handle;

        public PerfEventSpec Spec { get; } = spec;

        public ulong Id { get; } = id;

        public int Index { get; set; }
    }
}
