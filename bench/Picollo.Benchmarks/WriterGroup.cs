using System.Diagnostics;
using System.Globalization;
using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// Long-lived writer threads that record into a <see cref="ThreadsVariant"/> all at once. Each run:
/// every writer records one value (so per-thread setup such as a thread-local shard happens here, not
/// in the timed region), meets the others at a barrier, then takes its own start timestamp, records the
/// workload and takes its stop timestamp. The run's wall time is the latest stop minus the earliest start.
/// Each writer also reads its thread CPU time around the timed loop, so a run in which a writer was
/// preempted (by another process: the machine is shared) can be told apart.
/// </summary>
/// <remarks>
/// The threads live as long as the group, so a run measures recording only: no thread start, no
/// first-record registration, no fold of exited threads. The caller's thread blocks while the writers
/// run, so it takes no core from them.
/// </remarks>
internal sealed class WriterGroup : IDisposable
{
    private readonly Thread[] _threads;
    private readonly SemaphoreSlim[] _go;
    private readonly Barrier _barrier;
    private readonly CountdownEvent _done;
    private readonly long[] _starts;
    private readonly long[] _stops;
    private readonly long[] _allocated;
    private readonly long[] _cpuNanos;

    // Written by the caller before it releases the writers (SemaphoreSlim.Release is a full fence).
    private ThreadsVariant? _variant;
    private long[] _prime = [];
    private long[] _values = [];
    private int _repeats;
    private volatile bool _stopping;

    public WriterGroup(int threads)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(threads, 1);
        _go = new SemaphoreSlim[threads];
        _barrier = new Barrier(threads);
        _done = new CountdownEvent(threads);
        _starts = new long[threads];
        _stops = new long[threads];
        _allocated = new long[threads];
        _cpuNanos = new long[threads];
        _threads = new Thread[threads];
        for (int i = 0; i < threads; i++)
        {
            _go[i] = new SemaphoreSlim(0);
            int writer = i;
            _threads[i] = new Thread(() => WriterLoop(writer))
            {
                IsBackground = true,
                Name = string.Create(CultureInfo.InvariantCulture, $"writer {writer + 1}/{threads}"),
            };
            _threads[i].Start();
        }
    }

    public int Threads => _threads.Length;

    /// <summary>
    /// Every writer records <paramref name="prime"/> once, then (after the barrier, timed) every value of
    /// <paramref name="values"/> <paramref name="repeats"/> times; returns when all are done.
    /// </summary>
    public ParallelRun Run(ThreadsVariant variant, long[] prime, long[] values, int repeats)
    {
        _variant = variant;
        _prime = prime;
        _values = values;
        _repeats = repeats;
        _done.Reset();
        foreach (SemaphoreSlim go in _go)
            go.Release();
        _done.Wait();

        long start = long.MaxValue;
        long stop = long.MinValue;
        long allocated = 0;
        long minCpuNanos = long.MaxValue;
        for (int i = 0; i < _threads.Length; i++)
        {
            start = Math.Min(start, _starts[i]);
            stop = Math.Max(stop, _stops[i]);
            allocated += _allocated[i];
            minCpuNanos = Math.Min(minCpuNanos, _cpuNanos[i]);
        }

        ulong wallNanos = NanoScope.TicksToNanos(stop - start);
        double onCpu = ThreadCpuClock.IsSupported ? (double)minCpuNanos / Math.Max(wallNanos, 1) : 1;
        return new ParallelRun(wallNanos, allocated, onCpu);
    }

    public void Dispose()
    {
        _stopping = true;
        foreach (SemaphoreSlim go in _go)
            go.Release();
        foreach (Thread thread in _threads)
            thread.Join();
        foreach (SemaphoreSlim go in _go)
            go.Dispose();
        _barrier.Dispose();
        _done.Dispose();
    }

    private void WriterLoop(int writer)
    {
        while (true)
        {
            _go[writer].Wait();
            if (_stopping)
                return;

            ThreadsVariant variant = _variant!;
            long[] values = _values;
            int repeats = _repeats;

            variant.Run(_prime, 1);
            _barrier.SignalAndWait();

            long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
            long cpuBefore = ThreadCpuClock.NowNanos();
            long start = Stopwatch.GetTimestamp();
            variant.Run(values, repeats);
            long stop = Stopwatch.GetTimestamp();
            long cpuAfter = ThreadCpuClock.NowNanos();
            long allocatedAfter = GC.GetAllocatedBytesForCurrentThread();

            _starts[writer] = start;
            _stops[writer] = stop;
            _allocated[writer] = allocatedAfter - allocatedBefore;
            _cpuNanos[writer] = cpuAfter - cpuBefore;
            _done.Signal();
        }
    }
}
