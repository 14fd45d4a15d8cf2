using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>mmap(2)/munmap(2) of the C library (sys/mman.h values for Linux).</summary>
internal static partial class Mmap
{
    internal const int PROT_READ = 0x1;
    internal const int MAP_SHARED = 0x01;

    /// <summary>What mmap returns on failure: (void *)-1.</summary>
    internal static readonly nint MAP_FAILED = -1;

    /// <summary>mmap(2): the address, or MAP_FAILED with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "mmap", SetLastError = true)]
    internal static partial nint Map(nint address, nuint length, int protection, int flags, int fd, long offset);

    /// <summary>munmap(2): 0, or -1 with errno.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "munmap", SetLastError = true)]
    internal static partial int Unmap(nint address, nuint length);
}
