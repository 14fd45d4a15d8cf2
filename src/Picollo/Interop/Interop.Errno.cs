using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>The errno values the perf_event code tells apart (asm-generic/errno-base.h, errno.h on Linux).</summary>
internal static partial class Errno
{
    internal const int EPERM = 1;
    internal const int ENOENT = 2;
    internal const int ESRCH = 3;
    internal const int EINTR = 4;
    internal const int EIO = 5;
    internal const int E2BIG = 7;
    internal const int EBADF = 9;
    internal const int EAGAIN = 11;
    internal const int ENOMEM = 12;
    internal const int EACCES = 13;
    internal const int EFAULT = 14;
    internal const int EBUSY = 16;
    internal const int ENODEV = 19;
    internal const int EINVAL = 22;
    internal const int ENFILE = 23;
    internal const int EMFILE = 24;
    internal const int ENOSPC = 28;
    internal const int ENOSYS = 38;
    internal const int EOPNOTSUPP = 95;

    /// <summary>The symbolic name (<c>ENOENT</c>), or <c>errno N</c> for one this table does not know.</summary>
    internal static string Name(int errno) => errno switch
    {
        EPERM => "EPERM",
        ENOENT => "ENOENT",
        ESRCH => "ESRCH",
        EINTR => "EINTR",
        EIO => "EIO",
        E2BIG => "E2BIG",
        EBADF => "EBADF",
        EAGAIN => "EAGAIN",
        ENOMEM => "ENOMEM",
        EACCES => "EACCES",
        EFAULT => "EFAULT",
        EBUSY => "EBUSY",
        ENODEV => "ENODEV",
        EINVAL => "EINVAL",
        ENFILE => "ENFILE",
        EMFILE => "EMFILE",
        ENOSPC => "ENOSPC",
        ENOSYS => "ENOSYS",
        EOPNOTSUPP => "EOPNOTSUPP",
        _ => "errno " + errno.ToString(System.Globalization.CultureInfo.InvariantCulture),
    };

    /// <summary>strerror's wording for the documented values (fixed text, so messages do not depend on the libc locale).</summary>
    internal static string Meaning(int errno) => errno switch
    {
        EPERM => "Operation not permitted",
        ENOENT => "No such file or directory",
        ESRCH => "No such process",
        EINTR => "Interrupted system call",
        E2BIG => "Argument list too long",
        EBADF => "Bad file descriptor",
        EAGAIN => "Resource temporarily unavailable",
        ENOMEM => "Cannot allocate memory",
        EACCES => "Permission denied",
        EFAULT => "Bad address",
        EBUSY => "Device or resource busy",
        ENODEV => "No such device",
        EINVAL => "Invalid argument",
        ENFILE => "Too many open files in system",
        EMFILE => "Too many open files",
        ENOSPC => "No space left on device",
        ENOSYS => "Function not implemented",
        EOPNOTSUPP => "Operation not supported",
        _ => Marshal.GetPInvokeErrorMessage(errno),
    };

    /// <summary>Name and meaning, e.g. <c>ENOENT (No such file or directory)</c>.</summary>
    internal static string Describe(int errno) => Name(errno) + " (" + Meaning(errno) + ")";
}
