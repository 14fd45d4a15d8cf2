using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;

namespace Picollo.Baselines.Storage;

/// <summary>
/// An exclusive, cross-process lock for writing the baselines of one folder: every read-merge-write of a baseline or
/// received file happens under it, so parallel tests and processes never lose each other's entries.
/// </summary>
/// <remarks>
/// <para>
/// On Linux and macOS it is a <c>flock</c> on the baseline folder itself: no lock file is created, so nothing piles up,
/// and a folder the user can write to is always one they can lock (a shared lock folder under <c>/tmp</c> created by
/// one user used to refuse every other user). <c>flock</c> conflicts per open file description, so two threads of one
/// process exclude each other too, and the kernel releases the lock when a process dies.
/// </para>
/// <para>
/// On Windows a directory cannot be locked that way: the lock is a file in the user's temp folder opened with
/// <see cref="FileShare.None"/> and <see cref="FileOptions.DeleteOnClose"/>. Nobody else can open it while it is held,
/// and it is deleted with the last handle, so a newcomer creates a fresh one: nothing is left behind either.
/// </para>
/// </remarks>
internal sealed class BaselineFileLock : IDisposable
{
    private readonly int _fd;
    private readonly FileStream? _stream;

    private BaselineFileLock(int fd, FileStream? stream)
    {
        _fd = fd;
        _stream = stream;
    }

    /// <summary>Locks the folder of <paramref name="baselinePath"/>, waiting up to <paramref name="timeout"/> for another holder.</summary>
    /// <exception cref="DirectoryNotFoundException">The folder does not exist.</exception>
    /// <exception cref="UnauthorizedAccessException">The folder cannot be opened by this user.</exception>
    /// <exception cref="TimeoutException">Another test or process held the lock longer than <paramref name="timeout"/>.</exception>
    /// <exception cref="IOException">The lock failed for another reason (named in the message).</exception>
    public static BaselineFileLock Acquire(string baselinePath, TimeSpan timeout)
    {
        string folder = Path.GetDirectoryName(Path.GetFullPath(baselinePath))!;
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        return OperatingSystem.IsWindows()
            ? AcquireFile(baselinePath, folder, deadline, timeout)
            : AcquireFolder(folder, deadline, timeout);
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose()
    {
        if (_stream is not null)
            _stream.Dispose();
        else
            _ = Interop.Fd.Close(_fd);
    }

    private static BaselineFileLock AcquireFolder(string folder, long deadline, TimeSpan timeout)
    {
        int fd = Interop.Flock.Open(folder, Interop.Flock.OpenReadOnlyCloseOnExec);
        if (fd < 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            string reason = Marshal.GetPInvokeErrorMessage(errno);
            throw errno switch
            {
                Interop.Errno.ENOENT => new DirectoryNotFoundException($"The baseline folder '{folder}' does not exist ({reason})."),
                Interop.Errno.EACCES =>
                    new UnauthorizedAccessException($"The baseline folder '{folder}' cannot be opened by this user ({reason})."),
                _ => new IOException($"Could not open the baseline folder '{folder}' to lock it: {reason}."),
            };
        }

        while (true)
        {
            if (Interop.Flock.Lock(fd, Interop.Flock.LOCK_EX | Interop.Flock.LOCK_NB) == 0)
                return new BaselineFileLock(fd, null);

            int errno = Marshal.GetLastPInvokeError();
            bool busy = errno == Interop.Flock.EWOULDBLOCK || errno == Interop.Errno.EINTR;
            if (!busy || Environment.TickCount64 >= deadline)
            {
                _ = Interop.Fd.Close(fd);
                throw busy
                    ? Timeout(folder, timeout)
                    : new IOException($"Could not lock the baseline folder '{folder}': {Marshal.GetPInvokeErrorMessage(errno)}.");
            }

            Thread.Sleep(Random.Shared.Next(2, 20));
        }
    }

    private static BaselineFileLock AcquireFile(string baselinePath, string folder, long deadline, TimeSpan timeout)
    {
        if (!Directory.Exists(folder))
            throw new DirectoryNotFoundException($"The baseline folder '{folder}' does not exist.");

        // Keyed by the folder: one lock per folder on every OS.
        string key = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(folder.ToUpperInvariant())), 0, 16);
        string lockPath = Path.Combine(Path.GetTempPath(), $"picollo-{key}.lock");
        while (true)
        {
            try
            {
                return new BaselineFileLock(-1, new FileStream(
                    lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 1, FileOptions.DeleteOnClose));
            }
            catch (IOException e) when (e is not (DirectoryNotFoundException or PathTooLongException))
            {
                if (Environment.TickCount64 >= deadline)
                    throw Timeout(folder, timeout, e, baselinePath);
                Thread.Sleep(Random.Shared.Next(2, 20));
            }
        }
    }

    private static TimeoutException Timeout(string folder, TimeSpan timeout, Exception? inner = null, string? baselinePath = null) => new(
        BaselineFileMessages.LockHeldTooLong(folder, timeout.TotalSeconds, baselinePath is null ? null : Path.GetFileName(baselinePath)),
        inner);
}
