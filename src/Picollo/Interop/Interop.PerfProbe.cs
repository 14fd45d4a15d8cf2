using System.Runtime.InteropServices;

namespace Picollo.Interop;

internal static partial class Interop
{
    /// <summary>
    /// The minimum of perf_event_open the availability probe needs: open one counting event on the calling thread,
    /// report the errno, close it. The session has its own complete declarations; this one stays small on purpose.
    /// </summary>
    internal static unsafe partial class PerfProbe
    {
        /// <summary>perf_event_attr.flags bit: do not count kernel mode.</summary>
        internal const ulong ExcludeKernel = 1UL << 5;

        /// <summary>perf_event_attr.flags bit: do not count hypervisor mode.</summary>
        internal const ulong ExcludeHypervisor = 1UL << 6;

        /// <summary>perf_event_attr.flags bit: created disabled (the probe never needs it to count).</summary>
        internal const ulong Disabled = 1UL << 0;

        // PERF_ATTR_SIZE_VER1: every kernel since 2.6.33 accepts it, so the probe never fails with E2BIG itself.
        private const uint AttrSizeVer1 = 72;

        private const long PerfFlagFdCloexec = 8;

        /// <summary>Opens and immediately closes an event counting the calling thread on any CPU.</summary>
        /// <param name="type">perf_event_attr.type.</param>
        /// <param name="config">perf_event_attr.config.</param>
        /// <param name="flags">perf_event_attr flag bits (<see cref="ExcludeKernel"/>, …).</param>
        /// <returns>0 when the event opened, otherwise the errno.</returns>
        internal static int TryOpen(uint type, ulong config, ulong flags)
        {
            long number = RuntimeInformation.ProcessArchitecture switch
            {
                Architecture.X64 => 298,   // __NR_perf_event_open, arch/x86/entry/syscalls/syscall_64.tbl
                Architecture.Arm64 => 241, // __NR_perf_event_open, include/uapi/asm-generic/unistd.h
                _ => -1,
            };
            if (number < 0)
                return PerfEvents.PerfErrno.ENOSYS;

            Attr attr = default;
            attr.Type = type;
            attr.Size = AttrSizeVer1;
            attr.Config = config;
            attr.Flags = flags;
            // pid 0 and cpu -1: the calling thread wherever it runs; no group leader.
            long fd = Syscall(number, &attr, 0, -1, -1, PerfFlagFdCloexec);
            if (fd < 0)
                return Marshal.GetLastPInvokeError();
            _ = Close((int)fd);
            return 0;
        }

        // syscall(2) is variadic in C; the integer arguments travel in the same registers as a fixed signature's on
        // x86-64 and arm64 Linux. Arguments are passed as 64-bit values so no register holds stale upper bits.
        [LibraryImport(Libraries.Libc, EntryPoint = "syscall", SetLastError = true)]
        private static partial long Syscall(long number, Attr* attr, long pid, long cpu, long groupFd, long flags);

        [LibraryImport(Libraries.Libc, EntryPoint = "close", SetLastError = true)]
        private static partial int Close(int fd);

        /// <summary>The first 72 bytes of perf_event_attr (PERF_ATTR_SIZE_VER1).</summary>
        [StructLayout(LayoutKind.Sequential)]
        private struct Attr
        {
            public uint Type;
            public uint Size;
            public ulong Config;
            public ulong SamplePeriod;
            public ulong SampleType;
            public ulong ReadFormat;
            public ulong Flags;
            public uint WakeupEvents;
            public uint BpType;
            public ulong Config1;
            public ulong Config2;
        }
    }
}
