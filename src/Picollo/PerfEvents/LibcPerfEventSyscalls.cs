using System.Runtime.InteropServices;

namespace Picollo.PerfEvents;

/// <summary>The real kernel through the C library.</summary>
internal sealed class LibcPerfEventSyscalls : IPerfEventSyscalls
{
    /// <summary>The one instance (stateless).</summary>
    public static readonly LibcPerfEventSyscalls Instance = new();

    private LibcPerfEventSyscalls()
    {
    }

    public int Open(in Interop.PerfEventAttr attr, int pid, int cpu, int groupFd, ulong flags)
    {
        int fd = Interop.PerfEvent.Open(attr, pid, cpu, groupFd, flags, out int errno);
        return fd < 0 ? -errno : fd;
    }

    public unsafe int Read(int fd, Span<byte> buffer)
    {
        fixed (byte* p = buffer)
        {
            nint n = Interop.Fd.Read(fd, p, (nuint)buffer.Length);
            return n < 0 ? -Marshal.GetLastPInvokeError() : (int)n;
        }
    }

    public int Ioctl(int fd, ulong request, ulong argument)
    {
        int result = Interop.Fd.Ioctl(fd, request, argument);
        return result < 0 ? -Marshal.GetLastPInvokeError() : result;
    }

    public unsafe int GetId(int fd, out ulong id)
    {
        ulong value = 0;
        int result = Interop.Fd.Ioctl(fd, Interop.PerfEvent.PERF_EVENT_IOC_ID, &value);
        id = value;
        return result < 0 ? -Marshal.GetLastPInvokeError() : 0;
    }

    public int MapFirstPage(int fd, nuint length, out nint address)
    {
        // PROT_READ: the reader only loads from the page; a read-only mapping also tells the kernel we
        // will never write data_tail (there is no data area anyway: one page = metadata only).
        address = Interop.Mmap.Map(0, length, Interop.Mmap.PROT_READ, Interop.Mmap.MAP_SHARED, fd, 0);
        if (address == Interop.Mmap.MAP_FAILED)
        {
            address = 0;
            return -Marshal.GetLastPInvokeError();
        }

        return 0;
    }

    public int Unmap(nint address, nuint length) => Interop.Mmap.Unmap(address, length) < 0 ? -Marshal.GetLastPInvokeError() : 0;

    public int Close(int fd) => Interop.Fd.Close(fd) < 0 ? -Marshal.GetLastPInvokeError() : 0;
}
