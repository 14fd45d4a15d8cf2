using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Picollo.Testing;

/// <summary>
/// The machine-wide measurement lock: one perf test measures at a time on the machine, whichever process runs it
/// (<c>dotnet test</c> on a solution runs test projects in parallel, and two measurements on 2 cores disturb each other).
/// Linux and macOS: <c>flock</c> on the directory <c>/tmp</c> itself, which every user can open and nothing needs to be
/// created in; the kernel drops the lock with the descriptor, so a crashed test process never leaves it held. Windows:
/// a global named mutex (an abandoned one, whose owner died, counts as acquired).
/// </summary>
internal sealed class MeasurementLock : IDisposable
{
    // Not Path.GetTempPath(): TMPDIR is per user on macOS and in many CI setups, and the lock must be one inode for all.
    private const string LockedFolder = "/tmp";

    private const string MutexName = @"Global\Picollo.Measurement";

    private readonly int _fd;
    private readonly Mutex? _mutex;

    private MeasurementLock(int fd, Mutex? mutex)
    {
        _fd = fd;
        _mutex = mutex;
    }

    /// <summary>How long the lock was waited for.</summary>
    public TimeSpan Waited { get; private init; }

    /// <summary>Waits for the lock, polling, until <paramref name="timeout"/> or <paramref name="cancellation"/>.</summary>
    /// <param name="timeout">How long another process may hold it before this test gives up.</param>
    /// <param name="cancellation">The test's cancellation.</param>
    /// <returns>The held lock, or <see langword="null"/> when the platform offers none (the folder cannot be opened): measuring goes on unlocked.</returns>
    /// <exception cref="TimeoutException">Another process held it past <paramref name="timeout"/>.</exception>
    /// <exception cref="OperationCanceledException">The test was cancelled while waiting.</exception>
    public static MeasurementLock? Acquire(TimeSpan timeout, CancellationToken cancellation)
    {
        long start = Stopwatch.GetTimestamp();
        if (OperatingSystem.IsWindows())
            return AcquireMutex(timeout, start, cancellation);

        int fd = Interop.Flock.Open(LockedFolder, Interop.Flock.OpenReadOnlyCloseOnExec);
        if (fd < 0)
            return null;

        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (Interop.Flock.Lock(fd, Interop.Flock.LOCK_EX | Interop.Flock.LOCK_NB) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            bool busy = errno == Interop.Flock.EWOULDBLOCK || errno == Interop.Errno.EINTR;
            if (!busy)
            {
                _ = Interop.Fd.Close(fd);
                return null;
            }

            if (cancellation.IsCancellationRequested || Environment.TickCount64 >= deadline)
            {
                _ = Interop.Fd.Close(fd);
                cancellation.ThrowIfCancellationRequested();
                throw Timeout(timeout, $"flock on {LockedFolder}; `fuser {LockedFolder}` lists the processes that have it open");
            }

            Thread.Sleep(Random.Shared.Next(5, 50));
        }

        return new MeasurementLock(fd, null) { Waited = Stopwatch.GetElapsedTime(start) };
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose()
    {
        if (_mutex is not null)
        {
            _mutex.ReleaseMutex();
            _mutex.Dispose();
        }
        else
        {
            _ = Interop.Fd.Close(_fd);
        }
    }

    private static MeasurementLock AcquireMutex(TimeSpan timeout, long start, CancellationToken cancellation)
    {
        var mutex = new Mutex(false, MutexName);
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        try
        {
            while (!mutex.WaitOne(50))
            {
                if (cancellation.IsCancellationRequested || Environment.TickCount64 >= deadline)
                {
                    mutex.Dispose();
                    cancellation.ThrowIfCancellationRequested();
                    throw Timeout(timeout, $"the named mutex {MutexName}");
                }
            }
        }
        catch (AbandonedMutexException)
        {
            // Its previous owner died while measuring: the mutex is ours now.
        }

        return new MeasurementLock(-1, mutex) { Waited = Stopwatch.GetElapsedTime(start) };
    }

    private static TimeoutException Timeout(TimeSpan timeout, string what) => new(string.Create(CultureInfo.InvariantCulture,
        $"Another process held the machine-wide measurement lock ({what}) for more than {timeout.TotalSeconds:0} s: a perf test elsewhere on this machine is measuring, or hung. Wait for it or stop it; perf tests measure one at a time so they do not disturb each other."));
}
