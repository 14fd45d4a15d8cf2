using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>Scheduler affinity through libc: which CPU the calling thread runs on, and where it may run.</summary>
/// <remarks>
/// <c>pid = 0</c> means the calling thread (the kernel's affinity is per task, and a .NET thread is one task),
/// which is what the measurement engine pins. SetLastError marshalling is fine here: these calls happen once
/// per measurement, never on a sample boundary.
/// </remarks>
internal static partial class Sched
{
    /// <summary>
    /// Bytes of the affinity mask passed to the kernel: glibc's <c>cpu_set_t</c> (1,024 CPUs). The kernel
    /// rejects a smaller mask with EINVAL on machines with more possible CPUs than it can hold.
    /// </summary>
    internal const int CpuSetBytes = 128;

    /// <summary>The mask as 64-bit words.</summary>
    internal const int CpuSetWords = CpuSetBytes / sizeof(ulong);

    /// <summary><c>int sched_getcpu(void)</c>: the CPU the calling thread runs on, or -1 with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "sched_getcpu", SetLastError = true)]
    internal static partial int GetCpu();

    /// <summary><c>int sched_getaffinity(pid_t, size_t, cpu_set_t*)</c>: 0 on success, -1 with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "sched_getaffinity", SetLastError = true)]
    internal static unsafe partial int GetAffinity(int pid, nuint size, ulong* mask);

    /// <summary><c>int sched_setaffinity(pid_t, size_t, const cpu_set_t*)</c>: 0 on success, -1 with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "sched_setaffinity", SetLastError = true)]
    internal static unsafe partial int SetAffinity(int pid, nuint size, ulong* mask);
}
