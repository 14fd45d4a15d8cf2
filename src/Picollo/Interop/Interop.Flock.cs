using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>
/// open(2) of a directory and flock(2): an advisory lock on an existing directory, which needs no lock file and leaves
/// nothing behind (the baseline lock). Linux and macOS; the constants are per OS, not per architecture.
/// </summary>
internal static partial class Flock
{
    /// <summary>flock operation: exclusive lock.</summary>
    internal const int LOCK_EX = 2;

    /// <summary>flock operation flag: fail with EWOULDBLOCK instead of waiting.</summary>
    internal const int LOCK_NB = 4;

    /// <summary>O_RDONLY | O_CLOEXEC: a directory opens read-only; close-on-exec so a child process never inherits the lock.</summary>
    internal static int OpenReadOnlyCloseOnExec => OperatingSystem.IsMacOS() ? 0x0100_0000 : 0x8_0000;

    /// <summary>EWOULDBLOCK (= EAGAIN on Linux): another open file description holds the lock.</summary>
    internal static int EWOULDBLOCK => OperatingSystem.IsMacOS() ? 35 : 11;

    /// <summary>open(path, flags): a file descriptor, or -1 with errno. open is variadic; without O_CREAT the mode is never read.</summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    internal static partial int Open(string path, int flags);

    /// <summary>
    /// flock(fd, operation): 0, or -1 with errno. The lock belongs to the open file description and goes with its last close.
    /// </summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "flock", SetLastError = true)]
    internal static partial int Lock(int fd, int operation);
}
