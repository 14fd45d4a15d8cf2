using System.Runtime.InteropServices;

namespace Picollo.PerfEvents;

/// <summary>
/// One perf event fd (opened with PERF_FLAG_FD_CLOEXEC) and, optionally, its mmap'ed metadata page.
/// Releasing unmaps first, then closes: a mapping keeps the event alive in the kernel even after close,
/// so an fd released without its mapping would leak the counter.
/// </summary>
internal sealed class SafePerfEventHandle : SafeHandle
{
    private readonly IPerfEventSyscalls _syscalls;
    private nint _page;
    private nuint _pageLength;

    public SafePerfEventHandle(int fd, IPerfEventSyscalls syscalls)
        : base(invalidHandleValue: -1, ownsHandle: true)
    {
        _syscalls = syscalls;
        SetHandle(fd);
    }

    public override bool IsInvalid => handle < 0;

    /// <summary>The fd, valid until the handle is released.</summary>
    public int Fd => (int)handle;

    /// <summary>The mapped first page, or 0.</summary>
    public nint Page => _page;

    /// <summary>Maps the first page of the event; 0 or -errno. At most once.</summary>
    public int MapFirstPage(nuint length)
    {
        if (_page != 0)
            return 0;
        int result = _syscalls.MapFirstPage(Fd, length, out nint address);
        if (result == 0)
        {
            _page = address;
            _pageLength = length;
        }

        return result;
    }

    protected override bool ReleaseHandle()
    {
        bool ok = true;
        if (_page != 0)
        {
            ok = _syscalls.Unmap(_page, _pageLength) == 0;
            _page = 0;
        }

        return (_syscalls.Close((int)handle) == 0) & ok;
    }
}
