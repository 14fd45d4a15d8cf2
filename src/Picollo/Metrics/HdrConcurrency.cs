namespace Picollo.Metrics;

/// <summary>How a histogram lets several threads record into it.</summary>
public enum HdrConcurrency
{
    /// <summary>
    /// One writer at a time (default, fastest). Concurrent readers are safe; concurrent writers can lose
    /// increments that collide on a bucket, and a reset racing a writer can leave one bucket at old + 1.
    /// </summary>
    SingleWriter = 0,

    /// <summary>
    /// Any number of writers, each increment atomic. No count is ever lost, and a reset racing a writer
    /// is safe (an atomic add lands wholly before or after the clear); the cost grows with contention on
    /// hot buckets (cache-line ping-pong between cores).
    /// </summary>
    Interlocked = 1,

    /// <summary>
    /// Any number of writers, each recording into storage of its own found without locks; reads merge
    /// every thread's counts, and the counts of threads that exit are kept. Costs one bucket array per
    /// writing thread; scales with threads like a single writer does. Each thread's increment is a plain
    /// load-add-store, so a reset racing a writer has the single writer's old + 1 hazard on that thread's
    /// buckets: stop the writers before resetting, or read deltas with a snapshot instead.
    /// </summary>
    ThreadLocal = 2,
}
