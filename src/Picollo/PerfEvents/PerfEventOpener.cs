using System.Collections.Immutable;
using Picollo.Counters;
using Picollo.Metrics;
using GroupRange = Picollo.PerfEvents.PerfEventCounterSession.GroupRange;

namespace Picollo.PerfEvents;

/// <summary>
/// Opens a <see cref="PerfEventCounterSession"/>: which events go into which kernel group, with which attributes, and what
/// is reported when one cannot open. The session only reads and records what this lays out.
/// </summary>
internal static class PerfEventOpener
{
    private const ulong ReadFormat = Interop.PerfEvent.PERF_FORMAT_GROUP | Interop.PerfEvent.PERF_FORMAT_TOTAL_TIME_ENABLED
        | Interop.PerfEvent.PERF_FORMAT_TOTAL_TIME_RUNNING | Interop.PerfEvent.PERF_FORMAT_ID;

    /// <summary>Opens the groups through <paramref name="syscalls"/> (the real kernel, or a fake one in tests).</summary>
    public static PerfEventCounterSession Open(in PerfEventCounterSessionBuilder options, IPerfEventSyscalls syscalls)
    {
        bool excludeKernel = !options.IncludeKernel;
        List<PerfEventCounterRequest> requests = DistinctRequests(options.Requests);
        var groups = new List<OpenGroup>();
        try
        {
            (OpenEvent?[][] opened, string?[][] reasons) = OpenEvents(requests, options, syscalls, groups);
            string? enableFailure = options.Enabled ? EnableGroups(groups, syscalls) : null;
            (List<SafePerfEventHandle> handles, List<PerfEventSpec> specs, List<ulong> ids, GroupRange[] ranges) = LayOut(groups);
            nint[]? pages = MapPagesForRdpmc(options, syscalls, handles, specs);
            // A default(PerfEventCounterSessionBuilder) has a zeroed histogram builder (max trackable 0): use the defaults.
            HdrHistogramBuilder histogram = options.Histogram == default ? HdrHistogram.Factory : options.Histogram;
            (CounterDescriptor[] descriptors, int[] descriptorToCounter, List<PerfEventCounter> counters) =
                Describe(requests, opened, reasons, enableFailure, histogram);
            return new PerfEventCounterSession(
                syscalls, [.. handles], [.. counters], [.. ids], [.. specs], ranges, pages, descriptors, descriptorToCounter,
                excludeKernel);
        }
        catch
        {
            foreach (OpenGroup group in groups)
                group.Events.ForEach(static ev => ev.Handle.Dispose());
            throw;
        }
    }

    // A request that opens the same events as an earlier one is left out: one counter per set of kernel events.
    private static List<PerfEventCounterRequest> DistinctRequests(ImmutableArray<PerfEventCounterRequest> all)
    {
        var requests = new List<PerfEventCounterRequest>();
        foreach (PerfEventCounterRequest request in all)
        {
            if (!requests.Exists(request.OpensSameEventsAs))
                requests.Add(request);
        }

        return requests;
    }

    // Every event of every request, into the group of its PMU (added to groups as it gets its first event): per request and
    // event, the event opened, or why it did not open.
    private static (OpenEvent?[][] Opened, string?[][] Reasons) OpenEvents(
        List<PerfEventCounterRequest> requests,
        in PerfEventCounterSessionBuilder options,
        IPerfEventSyscalls syscalls,
        List<OpenGroup> groups)
    {
        bool excludeKernel = !options.IncludeKernel;
        ulong modeFlags = excludeKernel ? Interop.PerfEventAttr.FlagExcludeKernel | Interop.PerfEventAttr.FlagExcludeHv : 0;
        var opened = new OpenEvent?[requests.Count][];
        var reasons = new string?[requests.Count][];
        int openedCount = 0;
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

        return (opened, reasons);
    }

    // Leaders open disabled and each whole group is enabled with one ioctl (docs/ARCHITECTURE.md, "Kernel and CPU": a
    // member added to a counting group is not scheduled in until the next context switch). When one fails, nothing would
    // count: every group is closed and the failure returned.
    private static string? EnableGroups(List<OpenGroup> groups, IPerfEventSyscalls syscalls)
    {
        foreach (OpenGroup group in groups)
        {
            int result = syscalls.Ioctl(
                group.Events[0].Handle.Fd, Interop.PerfEvent.PERF_EVENT_IOC_ENABLE, Interop.PerfEvent.PERF_IOC_FLAG_GROUP);
            if (result < 0)
            {
                string enableFailure =
                    "ioctl(PERF_EVENT_IOC_ENABLE) of the group failed with " + Interop.Errno.Describe(-result) + ": nothing would count.";
                foreach (OpenGroup g in groups)
                    g.Events.ForEach(static ev => ev.Handle.Dispose());
                groups.Clear();
                return enableFailure;
            }
        }

        return null;
    }

    // The session's arrays list the events group after group, so each group read fills one contiguous slice.
    private static (List<SafePerfEventHandle> Handles, List<PerfEventSpec> Specs, List<ulong> Ids, GroupRange[] Ranges) LayOut(
        List<OpenGroup> groups)
    {
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

        return (handles, specs, ids, ranges);
    }

    // Per request, its descriptor (unavailable with the reasons when none of its events opened or the groups could not be
    // enabled, partial when some did not open) and, when available, its counter.
    private static (CounterDescriptor[] Descriptors, int[] DescriptorToCounter, List<PerfEventCounter> Counters) Describe(
        List<PerfEventCounterRequest> requests,
        OpenEvent?[][] opened,
        string?[][] reasons,
        string? enableFailure,
        HdrHistogramBuilder histogram)
    {
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

        return (descriptors, descriptorToCounter, counters);
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
    private static string? OpenInto(
        OpenGroup group,
        PerfEventSpec spec,
        in PerfEventCounterSessionBuilder options,
        ulong modeFlags,
        bool excludeKernel,
        IPerfEventSyscalls syscalls,
        out OpenEvent? added)
    {
        added = null;
        bool leader = group.Events.Count == 0;
        ulong flags = modeFlags;
        if (leader && options.Pinned)
            flags |= Interop.PerfEventAttr.FlagPinned; // the kernel rejects pinned members (EINVAL): pinning is a group property
        // The leader starts disabled, the whole group enabled by one ioctl once every member is in (see EnableGroups); members
        // follow their leader's state.
        if (leader)
            flags |= Interop.PerfEventAttr.FlagDisabled;
        Interop.PerfEventAttr attr = spec.CountingAttr(ReadFormat, flags);
        int groupFd = leader ? -1 : group.Events[0].Handle.Fd;
        int fd = syscalls.Open(attr, options.Pid, options.Cpu, groupFd, Interop.PerfEvent.PERF_FLAG_FD_CLOEXEC);
        if (fd < 0)
            return PerfEventMessages.OpenFailed(-fd, spec, excludeKernel);

        var handle = new SafePerfEventHandle(fd, syscalls);
        int result = syscalls.GetId(fd, out ulong id);
        if (result < 0)
        {
            handle.Dispose();
            return PerfEventMessages.EventIdUnavailable(spec.Name, Interop.Errno.Describe(-result));
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
            ? spec.Name + ": a session holds at most "
                + PerfEventGroupReader.MaxEvents.ToString(System.Globalization.CultureInfo.InvariantCulture)
                + " events; use a second session."
            : null;
    }

    /// <summary>
    /// Maps the first page of every event when rdpmc can ever apply: self-monitoring (pid 0, the kernel
    /// only exposes the calling thread's counters to rdpmc) and CPU PMU events only (software, tracepoint
    /// and breakpoint events never get a hardware counter index, so one of them forces read() for the
    /// whole group anyway and mapping would only cost fds' worth of address space).
    /// </summary>
    private static nint[]? MapPagesForRdpmc(
        in PerfEventCounterSessionBuilder options,
        IPerfEventSyscalls syscalls,
        List<SafePerfEventHandle> handles,
        List<PerfEventSpec> specs)
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
