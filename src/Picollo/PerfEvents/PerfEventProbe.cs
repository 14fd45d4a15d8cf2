using System.Runtime.InteropServices;
using Picollo.Interop;

namespace Picollo.PerfEvents;

/// <summary>Opens one counting event on the calling thread and closes it at once: what the availability probe needs.</summary>
internal static class PerfEventProbe
{
    // PERF_ATTR_SIZE_VER1: every kernel since 2.6.33 accepts it, so the probe itself never fails with E2BIG;
    // the kernel reads no further than this size.
    private const uint AttrSizeVer1 = 72;

    /// <summary>Tries to open an event counting the calling thread on any CPU, without a group.</summary>
    /// <param name="type">perf_event_attr.type.</param>
    /// <param name="config">perf_event_attr.config.</param>
    /// <param name="flags">perf_event_attr flag bits (<see cref="PerfEventAttr.FlagExcludeKernel"/>, …).</param>
    /// <returns>0 when the event opened, otherwise the errno.</returns>
    public static unsafe int TryOpen(uint type, ulong config, ulong flags)
    {
        long number = Interop.Interop.PerfEvent.SyscallNumber;
        if (number < 0)
            return Interop.Interop.Errno.ENOSYS;

        PerfEventAttr attr = default;
        attr.Type = type;
        attr.AttrSize = AttrSizeVer1;
        attr.Config = config;
        attr.Flags = flags;
        long fd = Interop.Interop.PerfEvent.PerfEventOpen(number, &attr, pid: 0, cpu: -1, groupFd: -1, Interop.Interop.PerfEvent.PERF_FLAG_FD_CLOEXEC);
        if (fd < 0)
            return Marshal.GetLastPInvokeError();
        _ = Interop.Interop.Fd.Close((int)fd);
        return 0;
    }
}
