using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Picollo.Measurement.Engine;

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
    /// <summary>
    /// The environment variable a measuring process sets for a fresh process it starts and waits for (a recording across
    /// processes, docs/VERDICTS.md "Levels"): <c>inherited</c> means the parent holds the lock for it. Without it the child
    /// would wait for a lock its own parent keeps until the child ends.
    /// </summary>
    public const string InheritedVariable = "PICOLLO_MEASUREMENT_LOCK";

    /// <summary>The value of <see cref="InheritedVariable"/> in a child whose parent holds the lock.</summary>
    public const string InheritedValue = "inherited";

    /// <summary>How long another process's measurement may hold the lock before a measurement gives up.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(10);

    // Not Path.GetTempPath(): TMPDIR is per user on macOS and in many CI setups, and the lock must be one inode for all.
    private const string LockedFolder = "/tmp";

    private const string MutexName = @"Global\Picollo.Measurement";

    // What this process holds (a flock descriptor or the mutex) and how many holders share it, under s_sync.
    private static readonly Lock s_sync = new();
    private static int s_fd = -1;
    private static Mutex? s_mutex;
    private static int s_holders;

    private bool _released;

    private MeasurementLock(TimeSpan waited) => Waited = waited;

    /// <summary>How long this holder waited for another process's measurement.</summary>
    public TimeSpan Waited { get; }

    /// <summary>Waits for the lock, polling, until <paramref name="timeout"/> or <paramref name="cancellation"/>.</summary>
    /// <param name="timeout">How long another process may hold it before this measurement gives up.</param>
    /// <param name="cancellation">The test's cancellation.</param>
    /// <returns>
    /// A holder, or <see langword="null"/> when the platform offers no lock (the folder cannot be opened) or the parent
    /// process holds it for this one (<see cref="InheritedVariable"/>): measuring goes on unlocked.
    /// </returns>
    /// <exception cref="TimeoutException">Another process held it past <paramref name="timeout"/>.</exception>
    /// <exception cref="OperationCanceledException">The test was cancelled while waiting.</exception>
    public static MeasurementLock? Acquire(TimeSpan timeout, CancellationToken cancellation)
    {
        lock (s_sync)
        {
            if (s_holders > 0)
            {
                s_holders++;
                return new MeasurementLock(TimeSpan.Zero);
            }

            if (string.Equals(Environment.GetEnvironmentVariable(InheritedVariable), InheritedValue, StringComparison.Ordinal))
                return null;

            long start = Stopwatch.GetTimestamp();
            bool taken = OperatingSystem.IsWindows() ? AcquireMutex(timeout, cancellation) : AcquireFlock(timeout, cancellation);
            if (!taken)
                return null;
            s_holders = 1;
            return new MeasurementLock(Stopwatch.GetElapsedTime(start));
        }
    }

    /// <summary>Releases this holder's share; the last one releases the machine-wide lock.</summary>
    public void Dispose()
    {
        lock (s_sync)
        {
            if (_released)
                return;
            _released = true;
            if (--s_holders > 0)
                return;

            if (s_mutex is not null)
            {
                s_mutex.ReleaseMutex();
                s_mutex.Dispose();
                s_mutex = null;
            }
            else
            {
                _ = Interop.Fd.Close(s_fd);
                s_fd = -1;
            }
        }
    }

    private static bool AcquireFlock(TimeSpan timeout, CancellationToken cancellation)
    {
        int fd = Interop.Flock.Open(LockedFolder, Interop.Flock.OpenReadOnlyCloseOnExec);
        if (fd < 0)
            return false;

        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (Interop.Flock.Lock(fd, Interop.Flock.LOCK_EX | Interop.Flock.LOCK_NB) != 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            bool busy = errno == Interop.Flock.EWOULDBLOCK || errno == Interop.Errno.EINTR;
            if (!busy)
            {
                _ = Interop.Fd.Close(fd);
                return false;
            }

            if (cancellation.IsCancellationRequested || Environment.TickCount64 >= deadline)
            {
                _ = Interop.Fd.Close(fd);
                cancellation.ThrowIfCancellationRequested();
                throw Timeout(timeout, $"flock on {LockedFolder}; `fuser {LockedFolder}` lists the processes that have it open");
            }

            Thread.Sleep(Random.Shared.Next(5, 50));
        }

        s_fd = fd;
        return true;
    }

    private static bool AcquireMutex(TimeSpan timeout, CancellationToken cancellation)
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

        s_mutex = mutex;
        return true;
    }

    private static TimeoutException Timeout(TimeSpan timeout, string what) => new(MeasurementMessages.MachineLockTimedOut(timeout, what));
}
