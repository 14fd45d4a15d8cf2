using System.Runtime.InteropServices;

namespace Picollo.PerfEvents;

/// <summary>
/// Opens one stand-alone counting event on the calling thread: what the availability probe and the TSC
/// frequency reader (<see cref="PerfEventTimeConversion"/>) need, without a session.
/// </summary>
internal static class PerfEventProbe
{
    // PERF_ATTR_SIZE_VER1: every kernel since 2.6.33 accepts it, so the probe itself never fails with E2BIG;
    // the kernel reads no further than this size.
    private const uint AttrSizeVer1 = 72;

    /// <summary>Tries to open an event counting the calling thread on any CPU, then closes it.</summary>
    /// <param name="type">perf_event_attr.type.</param>
    /// <param name="config">perf_event_attr.config.</param>
    /// <param name="flags">perf_event_attr flag bits (<see cref="Interop.PerfEventAttr.FlagExcludeKernel"/>, …).</param>
    /// <returns>0 when the event opened, otherwise the errno.</returns>
    public static int TryOpen(uint type, ulong config, ulong flags)
    {
        int fd = Open(type, config, flags, out int errno);
        if (fd >= 0)
            _ = Interop.Fd.Close(fd);
        return errno;
    }

    /// <summary>Opens an event counting the calling thread on any CPU, without a group; the caller closes the fd.</summary>
    /// <param name="type">perf_event_attr.type.</param>
    /// <param name="config">perf_event_attr.config.</param>
    /// <param name="flags">perf_event_attr flag bits.</param>
    /// <param name="errno">0 when the event opened, otherwise the errno.</param>
    /// <returns>The close-on-exec fd, or -1.</returns>
    public static unsafe int Open(uint type, ulong config, ulong flags, out int errno)
    {
        long number = Interop.PerfEvent.SyscallNumber;
        if (number < 0)
        {
            errno = Interop.Errno.ENOSYS;
            return -1;
        }

        Interop.PerfEventAttr attr = default;
        attr.Type = type;
        attr.AttrSize = AttrSizeVer1;
        attr.Config = config;
        attr.Flags = flags;
        long fd = Interop.PerfEvent.PerfEventOpen(number, &attr, pid: 0, cpu: -1, groupFd: -1, Interop.PerfEvent.PERF_FLAG_FD_CLOEXEC);
        errno = fd < 0 ? Marshal.GetLastPInvokeError() : 0;
        return fd < 0 ? -1 : (int)fd;
    }
}
