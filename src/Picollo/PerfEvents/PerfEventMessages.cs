using System.Globalization;

namespace Picollo.PerfEvents;

/// <summary>
/// The messages of perf events in one place: a failed perf_event_open as one actionable sentence (the errno and its
/// meaning, the counter, the cause on this machine and the exact remedy: the sysctl to run, the capability to grant, the
/// container option, the limit), why perf events are unavailable in this process, and why a session's group cannot be
/// used or read.
/// </summary>
internal static class PerfEventMessages
{
    private const string NoPmu =
        "no hardware PMU: this machine exposes no CPU PMU in /sys/bus/event_source/devices, likely a VM without a virtual PMU " +
        "(most cloud instances and CI runners such as GitHub-hosted ones), so hardware, cache and raw events cannot count; " +
        "enable the vPMU in the hypervisor (KVM/libvirt: host-passthrough CPU with the PMU on; VMware: " +
        "'Virtualize CPU performance counters') " +
        "or rely on software counters (task-clock, page-faults), the TSC and the .NET runtime counters";

    /// <summary>Given when perf_event_open of <paramref name="spec"/> failed with <paramref name="errno"/>.</summary>
    /// <param name="errno">The errno perf_event_open set.</param>
    /// <param name="spec">The event that failed to open.</param>
    /// <param name="excludeKernel">Whether the attribute excluded kernel mode (exclude_kernel = 1).</param>
    /// <returns>One sentence: <c>ERRNO (meaning) opening 'name': cause and remedy.</c></returns>
    internal static string OpenFailed(int errno, PerfEventSpec spec, bool excludeKernel) =>
        OpenFailed(errno, spec, excludeKernel, PerfSystemFacts.Current);

    /// <summary>As <see cref="OpenFailed(int, PerfEventSpec, bool)"/>, with the machine facts given (for tests).</summary>
    internal static string OpenFailed(int errno, PerfEventSpec spec, bool excludeKernel, PerfSystemFacts facts)
    {
        ArgumentNullException.ThrowIfNull(spec);
        ArgumentNullException.ThrowIfNull(facts);
        string cause = errno switch
        {
            Interop.Errno.ENOENT or Interop.Errno.ENODEV or Interop.Errno.EOPNOTSUPP => Unsupported(errno, spec, facts),
            Interop.Errno.EACCES => PermissionDenied(spec, excludeKernel, facts),
            Interop.Errno.EPERM =>
                "perf_event_open was refused before the kernel's own permission checks, by a seccomp filter or a missing capability: " +
                "Docker's default seccomp profile blocks it, so run the container with '--cap-add PERFMON' (Docker 20.10+ then allows " +
                "the call) or '--security-opt seccomp=unconfined' or a profile allowing perf_event_open (Kubernetes: a seccompProfile " +
                "that allows it); outside containers grant CAP_PERFMON with " + SetCap(facts) + " or check kernel lockdown",
            Interop.Errno.EMFILE => OpenFiles(facts),
            Interop.Errno.ENFILE =>
                "the system-wide open-file table is full: raise it with 'sudo sysctl fs.file-max=<more>' or close other processes' files",
            Interop.Errno.ENOSPC or Interop.Errno.EBUSY => Exhausted(errno, spec),
            Interop.Errno.EINVAL => Invalid(spec, excludeKernel, facts),
            Interop.Errno.E2BIG =>
                "this kernel is too old for the perf_event_attr size Picollo passes (a newer attribute field): upgrade the kernel, " +
                "or open the event without the newer options",
            Interop.Errno.ENOSYS =>
                "this kernel has no perf_event_open (built without CONFIG_PERF_EVENTS, or a seccomp filter answers ENOSYS): " +
                "use the TSC and the .NET runtime counters",
            Interop.Errno.ESRCH =>
                "the target thread or process does not exist (it exited before the counter opened): target a live thread, " +
                "or the calling thread (pid 0)",
            Interop.Errno.EINTR or Interop.Errno.EAGAIN => "the call was interrupted or the kernel was momentarily busy: retry the open",
            Interop.Errno.ENOMEM => "the kernel could not allocate the event: free memory or open fewer counters",
            Interop.Errno.EBADF =>
                "the group leader's file descriptor is invalid (closed or disposed): open the leader first and keep it open " +
                "while members join",
            Interop.Errno.EFAULT => "the kernel could not read perf_event_attr (a Picollo interop bug): please report it with this message",
            _ => "an errno perf_event_open does not document: run 'perf stat -e " + spec.Name + " true' to compare, and report it",
        };
        return $"{Interop.Errno.Name(errno)} ({Interop.Errno.Meaning(errno)}) opening '{spec.Name}': {cause}.";
    }

    /// <summary>
    /// Given when a session in user-only mode is asked for <paramref name="name"/>, a software event raised only from
    /// kernel code (context-switches, cpu-migrations), which with exclude_kernel always reads 0.
    /// </summary>
    internal static string CountsOnlyInKernel(string name) =>
        $"'{name}' is raised from kernel code (the scheduler), so with exclude_kernel it always reads 0: " +
        "a perf session built with WithKernel(true) counts it, which needs 'sudo sysctl kernel.perf_event_paranoid=1' or " +
        "CAP_PERFMON; Perf.Measure and perf tests count user mode only, so there it stays unavailable.";

    /// <summary>Given for every perf event family when the OS, <paramref name="osDescription"/>, is not Linux.</summary>
    internal static string NotLinux(string osDescription) =>
        $"perf_event is Linux-only and this is {osDescription}: here Picollo counts with the .NET runtime counters " +
        "(allocated bytes, collections, JIT, lock contentions) and measures time with the clock counter (the runtime's " +
        "high-resolution clock, in the default set here); tsc needs Linux x86-64, task-clock and the other perf events Linux.";

    /// <summary>Given for every perf event family when Linux has no <paramref name="paranoidPath"/> (no CONFIG_PERF_EVENTS).</summary>
    internal static string NoPerfEvents(string paranoidPath) =>
        $"perf events are not available: {paranoidPath} is missing, so this kernel was built without CONFIG_PERF_EVENTS " +
        "(or /proc is not mounted): use the TSC and the .NET runtime counters, or a kernel with perf events.";

    /// <summary>
    /// Given when an opened event's id could not be read (ioctl PERF_EVENT_IOC_ID failed with
    /// <paramref name="errnoDescription"/>), so the session's group cannot be read by id.
    /// </summary>
    internal static string EventIdUnavailable(string name, string errnoDescription) =>
        name + ": ioctl(PERF_EVENT_IOC_ID) failed with " + errnoDescription
        + ": the kernel is older than 3.12 or the fd is not a perf event; the group cannot be read by id.";

    /// <summary>
    /// Given when read() of the pinned group <paramref name="groupNames"/> returned 0 bytes: it lost its hardware
    /// counters and the kernel put it in error state.
    /// </summary>
    internal static string GroupInErrorState(string groupNames) =>
        "read() of the group " + groupNames + " returned 0 bytes: the pinned group lost its hardware counters "
        + "to another user (another pinned group, the NMI watchdog, a hypervisor) and the kernel put it in error state; "
        + "nothing is counted. Use WithPinned(false) to let the kernel multiplex it, or free the counters.";

    /// <summary>Given when read() of the group <paramref name="groupNames"/> failed with <paramref name="status"/>.</summary>
    internal static string GroupReadFailed(string groupNames, PerfGroupReadStatus status, int errno)
    {
        string group = "read() of the group " + groupNames;
        return status switch
        {
            PerfGroupReadStatus.Failed when errno == Interop.Errno.ENOSPC =>
                group + " failed with " + Interop.Errno.Describe(errno)
                + ": the kernel has more events in this group than the session opened; recreate the session.",
            PerfGroupReadStatus.Failed when errno == Interop.Errno.EINTR =>
                group + " was interrupted by signals "
                + PerfEventGroupReader.MaxInterruptedRetries.ToString(CultureInfo.InvariantCulture)
                + " times in a row (EINTR); retry the read.",
            PerfGroupReadStatus.Failed => group + " failed with " + Interop.Errno.Describe(errno) + ".",
            PerfGroupReadStatus.Truncated => group + " returned fewer bytes than its layout needs.",
            PerfGroupReadStatus.CountMismatch => group + " reported another number of events than the session opened.",
            PerfGroupReadStatus.UnknownId => group + " reported an event id the session did not open.",
            _ => group + " reported the same event id twice.",
        };
    }

    private static bool IsCpuEvent(PerfEventSpec spec) =>
        spec.Type is (uint)PerfEventType.Hardware or (uint)PerfEventType.HardwareCache or (uint)PerfEventType.Raw
        || PerfPmu.IsCpuPmuName(spec.Pmu);

    private static string Unsupported(int errno, PerfEventSpec spec, PerfSystemFacts facts)
    {
        if (IsCpuEvent(spec) && !facts.HasCpuPmu)
            return NoPmu;
        if (spec.Type == (uint)PerfEventType.HardwareCache)
        {
            return "this CPU's PMU has no mapping for the generic cache event '" + spec.Name +
                   "' (many CPUs lack store, prefetch or node events): choose another from 'perf list cache' or use the CPU's own " +
                   "event as 'cpu/event=0x..,umask=0x../'";
        }

        if (errno == Interop.Errno.EOPNOTSUPP && IsCpuEvent(spec))
        {
            return "the CPU PMU cannot count this event as requested (it cannot filter user/kernel/hypervisor mode, or lacks the " +
                   "feature): drop the exclude options or choose another event from 'perf list'";
        }

        if (spec.Type is (uint)PerfEventType.Hardware or (uint)PerfEventType.Raw || PerfPmu.IsCpuPmuName(spec.Pmu))
        {
            return string.Create(
                CultureInfo.InvariantCulture,
                $"this CPU's PMU does not support this event (type {spec.Type}, config 0x{spec.Config:x}), e.g. ref-cycles or " +
                $"stalled cycles on many AMD CPUs: choose another event from 'perf list'");
        }

        if (spec.Type == (uint)PerfEventType.Software)
        {
            return string.Create(
                CultureInfo.InvariantCulture,
                $"this kernel does not know software event {spec.Config} (it predates it): upgrade the kernel or drop the counter");
        }

        return string.Create(
            CultureInfo.InvariantCulture,
            $"the PMU '{spec.Pmu}' (type {spec.Type}) rejected config 0x{spec.Config:x}: check the event in " +
            $"{PerfSysfs.DefaultRoot}/{spec.Pmu}/events/ or with 'perf list {spec.Pmu}'");
    }

    private static string PermissionDenied(PerfEventSpec spec, bool excludeKernel, PerfSystemFacts facts)
    {
        string level = facts.ParanoidLevel?.ToString(CultureInfo.InvariantCulture) ?? "unknown";
        if (spec.Pmu == "msr")
        {
            return "the msr PMU cannot be opened unprivileged: run as root or with CAP_PERFMON (" + SetCap(facts) +
                   "), or read the time-stamp counter through Picollo's TSC counter instead";
        }

        if (facts.ParanoidLevel >= 3)
        {
            return $"kernel.perf_event_paranoid is {level}, a Debian/Ubuntu hardening level that forbids every unprivileged " +
                   "perf_event_open: " +
                   "run 'sudo sysctl kernel.perf_event_paranoid=2' to count user space (=1 to also count kernel code), " +
                   "or grant CAP_PERFMON with " + SetCap(facts);
        }

        if (!excludeKernel && facts.ParanoidLevel >= 2)
        {
            return $"kernel.perf_event_paranoid is {level}, which lets unprivileged processes count user space only: " +
                   "count user space (WithKernel(false), exclude_kernel = 1), or run 'sudo sysctl kernel.perf_event_paranoid=1' " +
                   "to also count kernel code, or grant CAP_PERFMON with " + SetCap(facts);
        }

        string at = facts.ParanoidLevel is null
            ? "(kernel.perf_event_paranoid could not be read)"
            : "at kernel.perf_event_paranoid = " + level;
        return $"permission denied {at} (CPU-wide counting needs 0 or less, another user's process " +
               "needs ptrace rights): count the calling thread, or run 'sudo sysctl kernel.perf_event_paranoid=0', or grant CAP_PERFMON " +
               "with " + SetCap(facts);
    }

    private static string OpenFiles(PerfSystemFacts facts)
    {
        string soft = facts.OpenFilesSoftLimit ?? "unknown";
        string hard = facts.OpenFilesHardLimit ?? "unknown";
        string target = facts.OpenFilesHardLimit is { } h && h != facts.OpenFilesSoftLimit ? h : "<higher>";
        return $"the process reached its open-file limit (ulimit -n = {soft}, hard limit {hard}, from /proc/self/limits) and every " +
               "counter holds one file descriptor: " +
               $"dispose sessions you no longer use, or raise the limit before starting the process ('ulimit -n {target}', " +
               "LimitNOFILE= in a systemd unit, '--ulimit nofile=...' for Docker)";
    }

    private static string Exhausted(int errno, PerfEventSpec spec)
    {
        string counters = PerfPmu.TryGetNumberOfCounters(out uint f, out uint p)
            ? string.Create(CultureInfo.InvariantCulture, $" ({f} fixed + {p} programmable per core here)")
            : "";
        string busy = errno == Interop.Errno.EBUSY
            ? " or another user holds them (another perf tool, an exclusive event, or the NMI watchdog: " +
              "'sudo sysctl kernel.nmi_watchdog=0' frees one)"
            : "";
        return $"the PMU has no free counter for '{spec.Name}': the group has more events than the core has counters{counters}{busy}: " +
               "reduce the group or split it across sessions, or drop 'pinned' so the kernel can multiplex";
    }

    private static string Invalid(PerfEventSpec spec, bool excludeKernel, PerfSystemFacts facts)
    {
        if (spec.Pmu == "msr")
        {
            return "the msr PMU refuses unprivileged opens with exclude flags at perf_event_paranoid >= 2: run as root or with " +
                   "CAP_PERFMON (" +
                   SetCap(facts) + "), or use Picollo's TSC counter instead";
        }

        if (!excludeKernel && facts.ParanoidLevel >= 2)
        {
            return string.Create(
                CultureInfo.InvariantCulture,
                $"kernel-mode counting was requested at kernel.perf_event_paranoid {facts.ParanoidLevel}: count user space only " +
                $"(WithKernel(false)), or run 'sudo sysctl kernel.perf_event_paranoid=1'");
        }

        if (spec.Type == (uint)PerfEventType.Raw || (spec.Type > (uint)PerfEventType.Breakpoint && spec.Kind == Counters.CounterKind.Raw))
        {
            return string.Create(
                CultureInfo.InvariantCulture,
                $"the PMU rejected config 0x{spec.Config:x}/0x{spec.Config1:x}: a field is out of range for this CPU or the event " +
                $"belongs to another PMU; check it with 'perf stat -e {spec.Name} true'");
        }

        return "the kernel rejected the attributes (a flag or field this kernel or PMU does not support, or a group mixing events " +
               "of incompatible PMUs): check with 'perf stat -e " + spec.Name + " true' and open the event in its own session";
    }

    private static string SetCap(PerfSystemFacts facts) =>
        "'sudo setcap cap_perfmon+ep " + facts.HostPath + "' (Linux 5.8+; CAP_SYS_ADMIN before)";
}
