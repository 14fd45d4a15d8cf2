using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>perf_event_open(2) and its constants (linux/perf_event.h).</summary>
internal static partial class PerfEvent
{
    /// <summary>PERF_TYPE_HARDWARE (enum perf_type_id): generalized CPU events.</summary>
    internal const uint PERF_TYPE_HARDWARE = 0;

    /// <summary>PERF_TYPE_SOFTWARE (enum perf_type_id): events the kernel counts itself.</summary>
    internal const uint PERF_TYPE_SOFTWARE = 1;

    /// <summary>PERF_COUNT_HW_CPU_CYCLES (enum perf_hw_id).</summary>
    internal const ulong PERF_COUNT_HW_CPU_CYCLES = 0;

    /// <summary>PERF_COUNT_SW_TASK_CLOCK (enum perf_sw_ids): ns the task ran.</summary>
    internal const ulong PERF_COUNT_SW_TASK_CLOCK = 1;

    /// <summary>perf_event_open flag: the new fd is close-on-exec (kernel 3.14+), so a child process never inherits a counter.</summary>
    internal const ulong PERF_FLAG_FD_CLOEXEC = 1UL << 3;

    internal const ulong PERF_FORMAT_TOTAL_TIME_ENABLED = 1UL << 0;
    internal const ulong PERF_FORMAT_TOTAL_TIME_RUNNING = 1UL << 1;
    internal const ulong PERF_FORMAT_ID = 1UL << 2;
    internal const ulong PERF_FORMAT_GROUP = 1UL << 3;

    /// <summary>_IO('$', 0).</summary>
    internal const ulong PERF_EVENT_IOC_ENABLE = 0x2400;

    /// <summary>_IO('$', 1).</summary>
    internal const ulong PERF_EVENT_IOC_DISABLE = 0x2401;

    /// <summary>_IO('$', 3).</summary>
    internal const ulong PERF_EVENT_IOC_RESET = 0x2403;

    /// <summary>_IOR('$', 7, __u64 *): the event id that PERF_FORMAT_ID reports next to each value.</summary>
    internal const ulong PERF_EVENT_IOC_ID = 0x80082407;

    /// <summary>ioctl argument: apply ENABLE/DISABLE/RESET to the whole group of the leader fd.</summary>
    internal const ulong PERF_IOC_FLAG_GROUP = 1;

    /// <summary>
    /// The syscall number of perf_event_open: glibc has no wrapper, so it goes through syscall(2).
    /// The number is per architecture (x86-64: 298, arm64: 241); -1 elsewhere, reported as ENOSYS.
    /// </summary>
    internal static long SyscallNumber => RuntimeInformation.ProcessArchitecture switch
    {
        Architecture.X64 => 298,
        Architecture.Arm64 => 241,
        _ => -1,
    };

    /// <summary>
    /// syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags). syscall(2) is variadic in C; on the
    /// SysV x86-64 and AArch64 ABIs integer/pointer variadic arguments travel in the same registers as
    /// fixed ones, and glibc's syscall is an assembly stub that never calls va_start, so a fixed
    /// signature is exact. Returns the fd, or -1 with errno.
    /// </summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "syscall", SetLastError = true)]
    internal static unsafe partial long PerfEventOpen(long number, PerfEventAttr* attr, int pid, int cpu, int groupFd, ulong flags);

    /// <summary>
    /// perf_event_open through <see cref="PerfEventOpen"/> with this architecture's <see cref="SyscallNumber"/>.
    /// </summary>
    /// <param name="attr">The attribute; the kernel reads <see cref="PerfEventAttr.AttrSize"/> bytes of it.</param>
    /// <param name="pid">The thread to count (0: the calling thread) or -1 for every thread of <paramref name="cpu"/>.</param>
    /// <param name="cpu">The CPU to count on, or -1 for any.</param>
    /// <param name="groupFd">The group leader's fd, or -1 to open a leader.</param>
    /// <param name="flags">PERF_FLAG_* bits.</param>
    /// <param name="errno">0 when the event opened, otherwise the errno (ENOSYS on an architecture without the syscall).</param>
    /// <returns>The fd, or -1.</returns>
    internal static unsafe int Open(in PerfEventAttr attr, int pid, int cpu, int groupFd, ulong flags, out int errno)
    {
        long number = SyscallNumber;
        if (number < 0)
        {
            errno = Errno.ENOSYS;
            return -1;
        }

        PerfEventAttr copy = attr;
        long fd = PerfEventOpen(number, &copy, pid, cpu, groupFd, flags);
        errno = fd < 0 ? Marshal.GetLastPInvokeError() : 0;
        return fd < 0 ? -1 : (int)fd;
    }

    /// <summary>
    /// Opens one stand-alone counting event on the calling thread (pid 0, any CPU, no group, close-on-exec) with a
    /// <see cref="PerfEventAttr.SizeVer1"/> attr: what a probe needs, without a session. The caller closes the fd.
    /// </summary>
    /// <param name="type">perf_event_attr.type.</param>
    /// <param name="config">perf_event_attr.config.</param>
    /// <param name="flags">perf_event_attr flag bits (<see cref="PerfEventAttr.FlagExcludeKernel"/>, …).</param>
    /// <param name="errno">0 when the event opened, otherwise the errno.</param>
    /// <returns>The fd, or -1.</returns>
    internal static int OpenCounting(uint type, ulong config, ulong flags, out int errno)
    {
        PerfEventAttr attr = default;
        attr.Type = type;
        attr.AttrSize = PerfEventAttr.SizeVer1;
        attr.Config = config;
        attr.Flags = flags;
        return Open(attr, pid: 0, cpu: -1, groupFd: -1, PERF_FLAG_FD_CLOEXEC, out errno);
    }
}
