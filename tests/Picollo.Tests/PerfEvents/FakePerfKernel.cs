using System.Buffers.Binary;
using Picollo.PerfEvents;

namespace Picollo.Tests.PerfEvents;

/// <summary>
/// A scripted kernel behind the syscall seam: a PMU that exists, groups read in the kernel's format with
/// ids in an order of its choosing, multiplexing, EOF for a pinned group in error state, EINTR, ENOSPC,
/// and open failures per event.
/// </summary>
internal sealed class FakePerfKernel : IPerfEventSyscalls
{
    private const int EINTR = 4;
    private const int ENOSPC = 28;

    private readonly Dictionary<int, FakeEvent> _events = [];
    private readonly Queue<int> _scriptedReadResults = new();
    private int _nextFd = 100;

    /// <summary>errno returned by open for an event (type, config).</summary>
    public Dictionary<(uint Type, ulong Config), int> OpenErrors { get; } = [];

    /// <summary>Every successful open, in order.</summary>
    public List<FakeEvent> Opened { get; } = [];

    /// <summary>Open fds (not closed yet).</summary>
    public HashSet<int> OpenFds { get; } = [];

    /// <summary>Mapped page addresses not unmapped yet.</summary>
    public HashSet<nint> MappedPages { get; } = [];

    /// <summary>Pages handed out by MapFirstPage, when set; otherwise mmap fails with ENODEV.</summary>
    public Func<FakeEvent, SyntheticPerfPage>? PageFactory { get; set; }

    public int ReadCalls { get; private set; }

    /// <summary>Group-wide times reported by the next reads (of every group whose leader sets none of its own).</summary>
    public ulong TimeEnabled { get; set; }

    public ulong TimeRunning { get; set; }

    /// <summary>
    /// Added to <see cref="TimeEnabled"/> and <see cref="TimeRunning"/> before each read, as a real kernel's times advance
    /// while the thread runs (0: times stay where a test puts them).
    /// </summary>
    public ulong TimeAdvancePerRead { get; set; }

    /// <summary>Whether group entries are listed in reverse open order (ids not in the session's order).</summary>
    public bool ReverseEntries { get; set; } = true;

    /// <summary>Next read() results to return before the normal behavior: 0 for EOF, negative for -errno.</summary>
    public void ScriptRead(params int[] results)
    {
        foreach (int r in results)
            _scriptedReadResults.Enqueue(r);
    }

    public FakeEvent Event(uint type, ulong config) => Opened.Single(e => e.Attr.Type == type && e.Attr.Config == config);

    public int Open(in Picollo.Interop.PerfEventAttr attr, int pid, int cpu, int groupFd, ulong flags)
    {
        if (OpenErrors.TryGetValue((attr.Type, attr.Config), out int errno))
            return -errno;
        int fd = _nextFd++;
        // Ids are unrelated to fds and to open order, as in the kernel (a global counter).
        var e = new FakeEvent(fd, 9000 - (ulong)fd * 3, attr, pid, cpu, groupFd, flags);
        _events.Add(fd, e);
        Opened.Add(e);
        OpenFds.Add(fd);
        return fd;
    }

    public int Read(int fd, Span<byte> buffer)
    {
        ReadCalls++;
        if (!OpenFds.Contains(fd))
            return -9;
        if (_scriptedReadResults.TryDequeue(out int scripted))
        {
            if (scripted <= 0)
                return scripted;
        }

        List<FakeEvent> group = [.. Opened.Where(e => OpenFds.Contains(e.Fd) && (e.Fd == fd || e.GroupFd == fd))];
        if (ReverseEntries)
            group.Reverse();
        int size = 24 + (16 * group.Count);
        if (buffer.Length < size)
            return -ENOSPC;
        BinaryPrimitives.WriteUInt64LittleEndian(buffer, (ulong)group.Count);
        FakeEvent leader = _events[fd];
        TimeEnabled += TimeAdvancePerRead;
        TimeRunning += TimeAdvancePerRead;
        BinaryPrimitives.WriteUInt64LittleEndian(buffer[8..], leader.TimeEnabled ?? TimeEnabled);
        BinaryPrimitives.WriteUInt64LittleEndian(buffer[16..], leader.TimeRunning ?? TimeRunning);
        for (int i = 0; i < group.Count; i++)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(buffer[(24 + (16 * i))..], group[i].Value);
            BinaryPrimitives.WriteUInt64LittleEndian(buffer[(32 + (16 * i))..], group[i].Id);
        }

        return size;
    }

    public int Ioctl(int fd, ulong request, ulong argument)
    {
        Ioctls.Add((fd, request, argument));
        return OpenFds.Contains(fd) ? IoctlResult : -9;
    }

    /// <summary>What every ioctl on an open fd returns (0, or -errno).</summary>
    public int IoctlResult { get; set; }

    public List<(int Fd, ulong Request, ulong Argument)> Ioctls { get; } = [];

    public int GetId(int fd, out ulong id)
    {
        id = _events[fd].Id;
        return 0;
    }

    public int MapFirstPage(int fd, nuint length, out nint address)
    {
        address = 0;
        if (PageFactory is null)
            return -19;
        SyntheticPerfPage page = PageFactory(_events[fd]);
        _events[fd].Page = page;
        address = page.Address;
        MappedPages.Add(address);
        return 0;
    }

    public int Unmap(nint address, nuint length) => MappedPages.Remove(address) ? 0 : -22;

    public int Close(int fd) => OpenFds.Remove(fd) ? 0 : -9;

    /// <summary>One opened event with the value the next read reports.</summary>
    internal sealed class FakeEvent(int fd, ulong id, Picollo.Interop.PerfEventAttr attr, int pid, int cpu, int groupFd, ulong flags)
    {
        public int Fd { get; } = fd;

        public ulong Id { get; } = id;

        public Picollo.Interop.PerfEventAttr Attr { get; } = attr;

        public int Pid { get; } = pid;

        public int Cpu { get; } = cpu;

        public int GroupFd { get; } = groupFd;

        public ulong Flags { get; } = flags;

        public ulong Value { get; set; }

        /// <summary>When set on a leader, its group's time_enabled (groups of different core PMUs run at different times).</summary>
        public ulong? TimeEnabled { get; set; }

        /// <summary>When set on a leader, its group's time_running.</summary>
        public ulong? TimeRunning { get; set; }

        public SyntheticPerfPage? Page { get; set; }
    }
}
