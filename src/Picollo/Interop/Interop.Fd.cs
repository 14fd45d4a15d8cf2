using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>File-descriptor calls of the C library. Never SuppressGCTransition: each may block or take µs.</summary>
internal static partial class Fd
{
    /// <summary>read(2): bytes read, 0 at end of file, or -1 with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "read", SetLastError = true)]
    internal static unsafe partial nint Read(int fd, byte* buffer, nuint count);

    /// <summary>close(2): 0, or -1 with errno (the fd is released even then on Linux: never retry).</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "close", SetLastError = true)]
    internal static partial int Close(int fd);

    /// <summary>
    /// ioctl(2) with an integer argument. ioctl is variadic in C; one integer variadic argument travels
    /// in the third argument register, exactly as this fixed signature passes it.
    /// </summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "ioctl", SetLastError = true)]
    internal static partial int Ioctl(int fd, ulong request, ulong argument);

    /// <summary>ioctl(2) whose argument is a pointer the kernel writes a 64-bit value into.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "ioctl", SetLastError = true)]
    internal static unsafe partial int Ioctl(int fd, ulong request, ulong* argument);
}
