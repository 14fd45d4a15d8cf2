using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Picollo.Measurement;

/// <summary>
/// The machine-wide measurement lock: one measurement at a time on the machine, whichever process takes it (<c>dotnet
/// test</c> on a solution runs test projects in parallel, and two measurements on 2 cores disturb each other: a chain
/// measured beside another project's perf tests read 2.67× its half instead of 2×). Every measurement takes it, and a perf
/// test holds it from its first measurement to its last judgement. Linux and macOS: <c>flock</c> on the directory
/// <c>/tmp</c> itself, which every user can open and nothing needs to be created in; the kernel drops the lock with the
/// descriptor, so a crashed process never leaves it held. Windows: a global named mutex (an abandoned one, whose owner
/// died, counts as acquired).
/// </summary>
/// <remarks>
/// Re-entrant per process: the engine's own gate already serializes the measurements of one process, so a second holder
/// in the process (a measurement inside a perf test that holds the lock) only counts. On Windows the mutex is released by
/// the thread that took it, which holds for the engine and the test adapters: each measures on the thread that locked.
/// </remarks>
internal sealed class MeasurementLock : IDisposable
{
    /// <summary>How long another process's measurement may hold the lock before a measurement gives up.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(10);

    private static readonly Lock s_sync = new();
    private static MeasurementLock? s_held;
    private static int s_holders;

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
        lock (s_sync)
        {
            if (s_held is not null)
            {
                s_holders++;
                return new MeasurementLock(-2, null);
            }

            MeasurementLock? taken = AcquireMachineWide(timeout, cancellation);
            if (taken is not null)
            {
                s_held = taken;
                s_holders = 1;
                return new MeasurementLock(-2, null) { Waited = taken.Waited };
            }

            return null;
        }
    }

    /// <summary>Releases this holder's share; the last one releases the machine-wide lock.</summary>
    public void Dispose()
    {
        lock (s_sync)
        {
            if (--s_holders > 0 || s_held is null)
                return;
            s_held.Release();
            s_held = null;
        }
    }

    private static MeasurementLock? AcquireMachineWide(TimeSpan timeout, CancellationToken cancellation)
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

    private void Release()
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
