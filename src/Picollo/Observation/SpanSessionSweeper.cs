namespace Picollo.Observation;

/// <summary>
/// Closes the perf_event sessions of threads that have exited. .NET has no thread-exit callback, so the threads that
/// opened sessions are kept in a list and checked (<see cref="Thread.IsAlive"/>) when another thread opens its first
/// session and once a second by a timer: a service that churns threads holds sessions for its live threads only, plus
/// those that exited in the last second.
/// </summary>
internal static class SpanSessionSweeper
{
    /// <summary>How often exited threads are looked for.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromSeconds(1);

    private static readonly Lock s_lock = new();
    private static readonly List<SpanThread> s_threads = [];
    private static Timer? s_timer;

    /// <summary>Threads whose sessions are open.</summary>
    public static int ThreadCount
    {
        get
        {
            lock (s_lock)
                return s_threads.Count;
        }
    }

    /// <summary>Adds a thread that opened a session (called on that thread), sweeping the exited ones first.</summary>
    public static void Register(SpanThread thread)
    {
        lock (s_lock)
        {
            SweepLocked();
            if (!s_threads.Contains(thread))
                s_threads.Add(thread);
            // Not a reason to keep the process alive, and nothing to do once every thread is swept: the callback is cheap.
            if (s_timer is null)
            {
                // Created inside some thread's first span: without this the timer would capture that flow's
                // ExecutionContext (its Activity, its request's AsyncLocals) and keep it alive for the process's life.
                using (ExecutionContext.SuppressFlow())
                    s_timer = new Timer(static _ => Sweep(), null, Period, Period);
            }
        }
    }

    /// <summary>Closes the sessions of every exited thread now; returns how many sessions it closed.</summary>
    public static int Sweep()
    {
        lock (s_lock)
            return SweepLocked();
    }

    private static int SweepLocked()
    {
        int closed = 0;
        for (int i = s_threads.Count - 1; i >= 0; i--)
        {
            if (s_threads[i].Owner.IsAlive)
                continue;
            // The owner has exited: nothing reads its sessions any more, and thread exit orders its last reads before this.
            closed += s_threads[i].CloseSessions();
            s_threads.RemoveAt(i);
        }

        return closed;
    }
}
