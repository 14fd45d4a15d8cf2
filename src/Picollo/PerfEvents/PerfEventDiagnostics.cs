using static Picollo.Interop.Interop;

namespace Picollo.PerfEvents;

/// <summary>
/// Turns a perf_event_open failure into one sentence: which counter, which errno and what it means, and
/// what to do. Minimal version; the availability probe replaces it with one that inspects the machine
/// (paranoid level, CAP_PERFMON, seccomp, ulimit, PMU presence) behind the same signature.
/// </summary>
internal static class PerfEventDiagnostics
{
    /// <summary>Explains why <paramref name="spec"/> could not be opened with <paramref name="errno"/>.</summary>
    /// <param name="errno">The positive errno of perf_event_open.</param>
    /// <param name="spec">The event that failed.</param>
    /// <param name="excludeKernel">Whether the event excluded kernel mode (WithKernel(false)).</param>
    internal static string Explain(int errno, PerfEventSpec spec, bool excludeKernel)
    {
        string hint = errno switch
        {
            Errno.ENOENT => "the kernel has no such event here: no hardware PMU (virtual machines and CI runners usually expose none) or this CPU lacks the event; software events (task-clock, page-faults) still work",
            Errno.ENODEV => "the PMU of this event is not present on this machine",
            Errno.EOPNOTSUPP => "this PMU does not support the requested mode (e.g. exclude flags or sampling)",
            Errno.EACCES or Errno.EPERM => excludeKernel
                ? "not permitted: /proc/sys/kernel/perf_event_paranoid may be 3 or more (run 'sudo sysctl kernel.perf_event_paranoid=2'), or a container seccomp profile blocks perf_event_open, or CAP_PERFMON is missing"
                : "not permitted to count kernel mode: use WithKernel(false), or run 'sudo sysctl kernel.perf_event_paranoid=1' (or grant CAP_PERFMON)",
            Errno.EMFILE => "this process is out of file descriptors: dispose unused sessions or raise 'ulimit -n'",
            Errno.ENFILE => "the system is out of file descriptors",
            Errno.EINVAL => "the kernel rejected the attributes: an unknown event code for this PMU, too many events for the hardware counters of one group, or a pid/cpu combination it does not accept",
            Errno.ESRCH => "the target process or thread does not exist",
            Errno.E2BIG => "this kernel is older than the perf_event_attr layout Picollo sends",
            Errno.ENOSYS => "perf_event_open is not available: not Linux, an unsupported architecture, or a kernel built without perf events",
            Errno.EBUSY => "another user holds the PMU exclusively (e.g. a pinned or exclusive group)",
            _ => "unexpected error from perf_event_open",
        };
        return spec.Name + ": perf_event_open failed with " + Errno.Describe(errno) + ": " + hint + ".";
    }
}
