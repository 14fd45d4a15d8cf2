using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace Picollo.PerfEvents;

/// <summary>
/// What perf_event can do in this process, probed once and explained: the paranoid level, whether kernel code can be
/// counted, whether software and hardware events open on the calling thread, and why not with the remedy.
/// </summary>
public sealed class PerfEventAvailability
{
    private static readonly Lazy<PerfEventAvailability> s_current = new(Probe);

    private static readonly PerfEventSpec s_taskClock = PerfEventSpec.Software("task-clock", PerfSoftwareCounterId.TaskClock, "ns");
    private static readonly PerfEventSpec s_cycles = PerfEventSpec.Hardware("cycles", PerfHardwareCounterId.CpuCycles);

    private PerfEventAvailability(
        string? softwareReason,
        string? hardwareReason,
        string? kernelReason,
        int? paranoidLevel,
        bool hasCpuPmu,
        IReadOnlyList<string> pmuNames,
        bool isPrivileged)
    {
        IsPrivileged = isPrivileged;
        SoftwareUnavailableReason = softwareReason;
        HardwareUnavailableReason = hardwareReason;
        KernelCountingUnavailableReason = kernelReason;
        ParanoidLevel = paranoidLevel;
        HasCpuPmu = hasCpuPmu;
        PmuNames = pmuNames;
    }

    /// <summary>This process's availability, probed on first use (opens and closes one software and one hardware event).</summary>
    public static PerfEventAvailability Current => s_current.Value;

    /// <summary>The overall level.</summary>
    public PerfEventAvailabilityLevel Level =>
        IsHardwareAvailable ? PerfEventAvailabilityLevel.Hardware
        : IsSoftwareAvailable ? PerfEventAvailabilityLevel.SoftwareOnly
        : PerfEventAvailabilityLevel.None;

    /// <summary>Whether kernel software events (task-clock, page-faults, …) open.</summary>
    public bool IsSoftwareAvailable => SoftwareUnavailableReason is null;

    /// <summary>Whether hardware events (cycles, instructions, cache, raw) open.</summary>
    public bool IsHardwareAvailable => HardwareUnavailableReason is null;

    /// <summary>Why software events do not open, with the remedy; <see langword="null"/> when they do.</summary>
    public string? SoftwareUnavailableReason { get; }

    /// <summary>Why hardware events do not open, with the remedy; <see langword="null"/> when they do.</summary>
    public string? HardwareUnavailableReason { get; }

    /// <summary>
    /// Whether counting must exclude kernel mode (exclude_kernel = 1), as observed by the probe: the case at
    /// perf_event_paranoid ≥ 2 without CAP_PERFMON (root and CAP_PERFMON may count kernel mode at any level). Then context-switches and
    /// cpu-migrations always read 0 (see <see cref="CountsOnlyInKernel"/>).
    /// </summary>
    public bool IsKernelExcludedForced => KernelCountingUnavailableReason is not null;

    /// <summary>Why kernel-mode counting is refused, with the remedy; <see langword="null"/> when it is allowed.</summary>
    public string? KernelCountingUnavailableReason { get; }

    /// <summary>
    /// The value of /proc/sys/kernel/perf_event_paranoid, or <see langword="null"/> when absent (not Linux, no perf events).
    /// </summary>
    public int? ParanoidLevel { get; }

    /// <summary>Whether the process holds CAP_PERFMON or CAP_SYS_ADMIN (root): the paranoid level then does not restrict it.</summary>
    public bool IsPrivileged { get; }

    /// <summary>Whether sysfs lists a CPU PMU (see <see cref="PerfPmu.HasCpuPmu"/>).</summary>
    public bool HasCpuPmu { get; }

    /// <summary>The PMUs sysfs lists.</summary>
    public IReadOnlyList<string> PmuNames { get; }

    /// <summary>
    /// Whether <paramref name="spec"/> is raised only from kernel code, so that with exclude_kernel it always reads 0:
    /// context-switches and cpu-migrations (docs/ARCHITECTURE.md, "Platform facts"). Sessions report such counters unavailable in user-only
    /// mode instead of recording zeros.
    /// </summary>
    /// <param name="spec">The event.</param>
    /// <param name="reason">Why it is meaningless in user-only mode, with the remedy.</param>
    /// <returns><see langword="true"/> when the event counts only in kernel mode.</returns>
    public static bool CountsOnlyInKernel(PerfEventSpec spec, [NotNullWhen(true)] out string? reason)
    {
        ArgumentNullException.ThrowIfNull(spec);
        reason = null;
        if (spec.Type != (uint)PerfEventType.Software
            || (PerfSoftwareCounterId)spec.Config is not (PerfSoftwareCounterId.ContextSwitches or PerfSoftwareCounterId.CpuMigrations))
            return false;

        reason = PerfEventMessages.CountsOnlyInKernel(spec.Name);
        return true;
    }

    /// <summary>
    /// Why <paramref name="spec"/> cannot count in this process in the given mode, as far as the probe knows; the
    /// session still reports the errno of an open that fails for another reason.
    /// </summary>
    /// <param name="spec">The event.</param>
    /// <param name="excludeKernel">Whether the session counts user space only.</param>
    /// <returns>The reason and remedy, or <see langword="null"/> when nothing known prevents it.</returns>
    public string? GetUnavailableReason(PerfEventSpec spec, bool excludeKernel)
    {
        ArgumentNullException.ThrowIfNull(spec);
        string? family = spec.Type switch
        {
            (uint)PerfEventType.Software => SoftwareUnavailableReason,
            (uint)PerfEventType.Hardware or (uint)PerfEventType.HardwareCache or (uint)PerfEventType.Raw => HardwareUnavailableReason,
            _ when PerfPmu.IsCpuPmuName(spec.Pmu) => HardwareUnavailableReason,
            _ => SoftwareUnavailableReason, // another PMU: at least the generic checks (OS, paranoid, seccomp) apply
        };
        if (family is not null)
            return family;
        if (excludeKernel && CountsOnlyInKernel(spec, out string? kernelOnly))
            return kernelOnly;
        return !excludeKernel ? KernelCountingUnavailableReason : null;
    }

    /// <summary>A multi-line report of the probe: level, paranoid level, kernel counting, each family with its reason.</summary>
    /// <returns>The report.</returns>
    public override string ToString()
    {
        var report = new StringBuilder();
        report.Append(CultureInfo.InvariantCulture, $"perf_event availability: {Level}").AppendLine();
        report.Append(CultureInfo.InvariantCulture, $"  OS: {RuntimeInformation.OSDescription} ({RuntimeInformation.ProcessArchitecture})")
            .AppendLine();
        string paranoid = ParanoidLevel?.ToString(CultureInfo.InvariantCulture) ?? "absent";
        string bypassed = IsPrivileged ? " (bypassed: CAP_PERFMON or CAP_SYS_ADMIN held)" : "";
        report.Append(CultureInfo.InvariantCulture, $"  perf_event_paranoid: {paranoid}{bypassed}").AppendLine();
        string kernelMode = IsKernelExcludedForced ? "refused (exclude_kernel forced) - " + KernelCountingUnavailableReason : "allowed";
        report.Append(CultureInfo.InvariantCulture, $"  kernel-mode counting: {kernelMode}").AppendLine();
        report.Append(CultureInfo.InvariantCulture, $"  software events: {SoftwareUnavailableReason ?? "available"}").AppendLine();
        report.Append(CultureInfo.InvariantCulture, $"  hardware events: {HardwareUnavailableReason ?? "available"}").AppendLine();
        string pmus = PmuNames.Count == 0 ? "none" : string.Join(", ", PmuNames);
        report.Append(CultureInfo.InvariantCulture, $"  PMUs: {pmus}{(HasCpuPmu ? "" : " (no CPU PMU)")}");
        return report.ToString();
    }

    /// <summary>Builds the result from the probe's observations: pure, so every platform case is testable anywhere.</summary>
    /// <param name="isLinux">Whether the OS is Linux.</param>
    /// <param name="facts">The machine facts (paranoid level, PMUs, limits).</param>
    /// <param name="softwareErrno">task-clock with exclude_kernel/exclude_hv: 0 when it opened.</param>
    /// <param name="hardwareErrno">cycles with exclude_kernel/exclude_hv: 0 when it opened.</param>
    /// <param name="kernelErrno">task-clock without exclude_kernel: 0 when it opened.</param>
    internal static PerfEventAvailability Classify(
        bool isLinux, PerfSystemFacts facts, int softwareErrno, int hardwareErrno, int kernelErrno)
    {
        if (!isLinux)
        {
            string reason = PerfEventMessages.NotLinux(RuntimeInformation.OSDescription);
            return new PerfEventAvailability(reason, reason, reason, null, false, [], false);
        }

        if (facts.ParanoidLevel is null)
        {
            string reason = PerfEventMessages.NoPerfEvents(PerfSystemFacts.ParanoidPath);
            return new PerfEventAvailability(reason, reason, reason, null, facts.HasCpuPmu, facts.PmuNames, facts.IsPrivileged);
        }

        string? software = softwareErrno == 0 ? null : PerfEventMessages.OpenFailed(softwareErrno, s_taskClock, excludeKernel: true, facts);
        string? hardware = hardwareErrno == 0 ? null : PerfEventMessages.OpenFailed(hardwareErrno, s_cycles, excludeKernel: true, facts);
        string? kernel = kernelErrno == 0 ? null : PerfEventMessages.OpenFailed(kernelErrno, s_taskClock, excludeKernel: false, facts);
        return new PerfEventAvailability(
            software, hardware, kernel, facts.ParanoidLevel, facts.HasCpuPmu, facts.PmuNames, facts.IsPrivileged);
    }

    private static PerfEventAvailability Probe()
    {
        PerfSystemFacts facts = PerfSystemFacts.Current;
        if (!OperatingSystem.IsLinux() || facts.ParanoidLevel is null)
            return Classify(OperatingSystem.IsLinux(), facts, Interop.Errno.ENOSYS, Interop.Errno.ENOSYS, Interop.Errno.ENOSYS);

        const ulong UserOnly =
            Interop.PerfEventAttr.FlagDisabled | Interop.PerfEventAttr.FlagExcludeKernel | Interop.PerfEventAttr.FlagExcludeHv;
        int software = TryOpen(s_taskClock, UserOnly);
        int hardware = TryOpen(s_cycles, UserOnly);
        int kernel = TryOpen(s_taskClock, Interop.PerfEventAttr.FlagDisabled);
        return Classify(isLinux: true, facts, software, hardware, kernel);
    }

    /// <summary>Opens <paramref name="spec"/> on the calling thread and closes it again: 0 when it opened, otherwise the errno.</summary>
    private static int TryOpen(PerfEventSpec spec, ulong flags)
    {
        int fd = Interop.PerfEvent.OpenCounting(spec.Type, spec.Config, flags, out int errno);
        if (fd >= 0)
            _ = Interop.Fd.Close(fd);
        return errno;
    }
}
