using Picollo.Counters;
using Picollo.PerfEvents;

namespace Picollo.Observation;

/// <summary>
/// The perf_event counters of one span: which of the requested ones count, how each thread opens its own session for
/// them, and which of that session's descriptors the span records. Decided once, at <see cref="PerfSpan.Create(string, PerfSpanOptions)"/>,
/// by opening a probe session on the creating thread.
/// </summary>
internal sealed class SpanPerfPlan
{
    private static int s_nextId = -1;

    private static readonly Dictionary<
        (string Names, bool AllowSyscallReads, IPerfEventSyscalls Syscalls),
        (SpanPerfPlan? Plan, (CounterDescriptor, string?, bool)[] Counters)> s_plans = [];

    private readonly PerfEventCounterSessionBuilder _builder;
    private readonly IPerfEventSyscalls _syscalls;
    private readonly int _descriptorCount;

    private SpanPerfPlan(
        PerfEventCounterSessionBuilder builder, IPerfEventSyscalls syscalls, int descriptorCount, int[] recorded, bool requiresRdpmc)
    {
        Id = Interlocked.Increment(ref s_nextId);
        _builder = builder;
        _syscalls = syscalls;
        _descriptorCount = descriptorCount;
        RecordedDescriptors = recorded;
        RequiresRdpmc = requiresRdpmc;
    }

    /// <summary>The index of this plan's session in every thread's session table.</summary>
    public int Id { get; }

    /// <summary>For each recorded counter, its index in the session's <see cref="PerfEventCounterSession.Descriptors"/>.</summary>
    public int[] RecordedDescriptors { get; }

    /// <summary>Whether a thread's session must allow rdpmc to be used (syscall reads were not allowed).</summary>
    public bool RequiresRdpmc { get; }

    /// <summary>
    /// Resolves the requested perf_event names into counters: each with its unavailable reason or the way it is read.
    /// Returns the plan of the counters that count (null when none does).
    /// </summary>
    /// <exception cref="PerfEventNameException">A name does not resolve (the message has suggestions).</exception>
    public static SpanPerfPlan? Resolve(
        IReadOnlyList<string> names,
        bool allowSyscallReads,
        IPerfEventSyscalls syscalls,
        List<(CounterDescriptor Descriptor, string? Reason, bool BySyscall)> counters)
    {
        // Spans asking for the same counters share a plan, so a thread opens one session (one group, its fds, its share of
        // the PMU) for all of them: reads are cumulative, and each span scales its own interval.
        // Joined with NUL: PMU terms contain commas ("cpu/event=0x3c,umask=0x0/").
        var key = (string.Join('\0', names.Select(static n => n.ToLowerInvariant())), allowSyscallReads, syscalls);
        lock (s_plans)
        {
            if (s_plans.TryGetValue(key, out (SpanPerfPlan? Plan, (CounterDescriptor, string?, bool)[] Counters) cached))
            {
                counters.AddRange(cached.Counters);
                return cached.Plan;
            }

            int first = counters.Count;
            SpanPerfPlan? plan = ResolveNew(names, allowSyscallReads, syscalls, counters);
            // Only a plan whose counters all opened is shared: a counter that failed to open (too many open files, the PMU
            // busy, or absent) is probed again by the next span that asks for it, as it would be without the cache.
            if (counters.Skip(first).All(static c => c.Descriptor.IsAvailable))
                s_plans[key] = (plan, [.. counters.Skip(first)]);
            return plan;
        }
    }

    private static SpanPerfPlan? ResolveNew(
        IReadOnlyList<string> names,
        bool allowSyscallReads,
        IPerfEventSyscalls syscalls,
        List<(CounterDescriptor Descriptor, string? Reason, bool BySyscall)> counters)
    {
        PerfEventCounterSessionBuilder all = Builder(names);
        using PerfEventCounterSession probe = PerfEventOpener.Open(all, syscalls);
        IReadOnlyList<CounterDescriptor> descriptors = probe.Descriptors;

        if (allowSyscallReads)
        {
            bool bySyscall = !probe.AllowsUserRdpmc;
            var recorded = new List<int>();
            for (int i = 0; i < descriptors.Count; i++)
            {
                counters.Add((descriptors[i], descriptors[i].UnavailableReason, bySyscall));
                if (descriptors[i].IsAvailable)
                    recorded.Add(i);
            }

            return recorded.Count == 0 ? null : new SpanPerfPlan(all, syscalls, descriptors.Count, [.. recorded], requiresRdpmc: false);
        }

        // Without syscall reads only rdpmc-readable counters count: software events never have a counter index, and one
        // of them in a group forces read() for the whole group, so they are left out of the session the threads open.
        var candidates = new List<CounterDescriptor>();
        foreach (CounterDescriptor d in descriptors)
        {
            if (d.IsAvailable && d.Kind != CounterKind.Software)
                candidates.Add(d);
        }

        string? rdpmcReason = null;
        PerfEventCounterSessionBuilder hardware = Builder([.. candidates.Select(static c => c.Name)]);
        int hardwareCount = 0;
        if (candidates.Count > 0)
        {
            using PerfEventCounterSession rdpmcProbe = PerfEventOpener.Open(hardware, syscalls);
            hardwareCount = rdpmcProbe.Descriptors.Count;
            if (!rdpmcProbe.AllowsUserRdpmc)
                rdpmcReason = ObservationMessages.NoRdpmc([.. candidates.Select(static c => c.Name)]);
        }

        var recordedHardware = new List<int>();
        foreach (CounterDescriptor d in descriptors)
        {
            int candidate = candidates.IndexOf(d);
            string? reason = d.UnavailableReason
                ?? (d.Kind == CounterKind.Software ? ObservationMessages.SoftwareCountersNeedSyscalls() : rdpmcReason);
            counters.Add((d, reason, false));
            if (reason is null)
                recordedHardware.Add(candidate);
        }

        return recordedHardware.Count == 0
            ? null
            : new SpanPerfPlan(hardware, syscalls, hardwareCount, [.. recordedHardware], requiresRdpmc: true);
    }

    /// <summary>Opens this plan's session on the calling thread; null with the reason when it cannot count here.</summary>
    public PerfEventCounterSession? TryOpen(out string? reason)
    {
        PerfEventCounterSession session;
        try
        {
            session = PerfEventOpener.Open(_builder, _syscalls);
        }
        catch (InvalidOperationException ex)
        {
            reason = ex.Message;
            return null;
        }

        reason = session.Descriptors.Count != _descriptorCount
            ? "this thread's session opened " + session.Descriptors.Count + " counters where the span expects " + _descriptorCount + "."
            : RequiresRdpmc && !session.AllowsUserRdpmc
                ? ObservationMessages.NoRdpmc([.. session.Descriptors.Select(static d => d.Name)])
                : null;
        // A counter that opened at Create but not on this thread (too many open files, the PMU taken) would read as 0 in
        // every span: the thread counts none of them instead (all counters or none).
        for (int i = 0; reason is null && i < RecordedDescriptors.Length; i++)
        {
            CounterDescriptor d = session.Descriptors[RecordedDescriptors[i]];
            if (!d.IsAvailable)
                reason = d.UnavailableReason;
        }

        if (reason is not null)
        {
            session.Dispose();
            return null;
        }

        reason = null;
        return session;
    }

    private static PerfEventCounterSessionBuilder Builder(IReadOnlyList<string> names)
    {
        // Not pinned: a span session shares the PMU with everything else on the machine for hours, so it is multiplexed
        // (values scaled by enabled/running) rather than put in error state when another pinned user takes the counters.
        PerfEventCounterSessionBuilder builder = PerfEventCounterSession.Factory.WithPinned(false).WithKernel(false).WithEnabled(true);
        foreach (string name in names)
            builder = builder.WithCounter(name);
        return builder;
    }
}
