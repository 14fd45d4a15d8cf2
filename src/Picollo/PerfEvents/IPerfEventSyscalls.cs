namespace Picollo.PerfEvents;

/// <summary>
/// The kernel as the perf_event code sees it. Every call returns a non-negative result or <c>-errno</c>
/// (no thread-local errno to race with), so a fake kernel in tests can simulate a PMU, multiplexing, a
/// pinned group in error state, ENOSPC, EINTR and open failures on a machine that has none of them.
/// </summary>
internal interface IPerfEventSyscalls
{
    /// <summary>perf_event_open: the new fd, or -errno.</summary>
    int Open(in Interop.PerfEventAttr attr, int pid, int cpu, int groupFd, ulong flags);

    /// <summary>read(2): bytes read (0 = end of file), or -errno.</summary>
    int Read(int fd, Span<byte> buffer);

    /// <summary>ioctl(2) with an integer argument: the result, or -errno.</summary>
    int Ioctl(int fd, ulong request, ulong argument);

    /// <summary>ioctl(PERF_EVENT_IOC_ID): 0 and the id the group read format reports for this fd, or -errno.</summary>
    int GetId(int fd, out ulong id);

    /// <summary>mmap(2) of the first (metadata) page of a perf fd, read-only shared: 0, or -errno.</summary>
    int MapFirstPage(int fd, nuint length, out nint address);

    /// <summary>munmap(2): 0, or -errno.</summary>
    int Unmap(nint address, nuint length);

    /// <summary>close(2): 0, or -errno.</summary>
    int Close(int fd);
}
