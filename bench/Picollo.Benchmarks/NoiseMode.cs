namespace Picollo.Benchmarks;

/// <summary>
/// What else runs on the machine during the verdict experiment (issue 10), the measured thread being on CPU 0 of two:
/// <list type="bullet">
/// <item><c>idle</c>: nothing started by the benchmark;</item>
/// <item><c>spinner</c>: a dependent arithmetic loop pinned to CPU 1, as a busy CI neighbour (<see cref="CpuSpinner"/>);</item>
/// <item><c>bursts</c>: CPU 1 streams through 64 MiB buffers (memory bandwidth, last-level cache), and every 20 ms a thread
/// pinned to CPU 0 spins for 2 ms, preempting the measured thread (a timer-driven service, a log shipper);</item>
/// <item><c>process</c>: another process keeps a core busy (<see cref="OtherProcessNoise"/>, issue 24): what a user's CI
/// runs beside the tests. Unlike the threads above, /proc/stat counts it as other processes' CPU time, so verdicts judge
/// time with the busy machine's allowance.</item>
/// </list>
/// </summary>
internal sealed class NoiseMode : IDisposable
{
    public const int MeasuredCpu = 0;

    public const int NeighbourCpu = 1;

    private const int StreamBytes = 64 << 20;

    private readonly List<Thread> _threads = [];
    private OtherProcessNoise? _process;
    private volatile bool _stop;
    private long _work;

    private NoiseMode(string name) => Name = name;

    public static string[] Names { get; } = ["idle", "spinner", "bursts", "process"];

    public string Name { get; }

    /// <summary>Work done by the noise (spinner blocks, streamed MiB, bursts; the other process's CPU milliseconds), proof that it ran.</summary>
    public long Work => _process is { } process ? (long)process.CpuTime.TotalMilliseconds : Interlocked.Read(ref _work);

    public static NoiseMode Start(string name)
    {
        var mode = new NoiseMode(name);
        switch (name)
        {
            case "idle":
                break;
            case "spinner":
                mode.Run(NeighbourCpu, mode.Spin);
                break;
            case "bursts":
                mode.Run(NeighbourCpu, mode.Stream);
                mode.Run(MeasuredCpu, mode.Burst);
                break;
            case "process":
                mode._process = OtherProcessNoise.Start();
                break;
            default:
                throw new ArgumentException($"Unknown noise mode '{name}': use {string.Join(", ", Names)}.", nameof(name));
        }

        return mode;
    }

    public void Dispose()
    {
        _process?.Dispose();
        _stop = true;
        foreach (Thread thread in _threads)
            thread.Join();
    }

    private void Run(int cpu, Action body)
    {
        var thread = new Thread(() =>
        {
            if (!CpuSpinner.PinCurrentThread(cpu))
                throw new InvalidOperationException($"sched_setaffinity refused CPU {cpu} for the {Name} noise.");
            body();
        })
        { IsBackground = true, Name = $"noise-{Name}-{cpu}" };
        _threads.Add(thread);
        thread.Start();
    }

    private void Spin()
    {
        ulong x = 1;
        while (!_stop)
        {
            for (int i = 0; i < 1_000; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            Interlocked.Increment(ref _work);
        }

        GC.KeepAlive(x);
    }

    private void Stream()
    {
        byte[] from = new byte[StreamBytes], to = new byte[StreamBytes];
        Random.Shared.NextBytes(from);
        while (!_stop)
        {
            from.AsSpan().CopyTo(to);
            (from, to) = (to, from);
            Interlocked.Add(ref _work, StreamBytes >> 20);
        }
    }

    private void Burst()
    {
        long burstTicks = System.Diagnostics.Stopwatch.Frequency / 500;
        ulong x = 1;
        while (!_stop)
        {
            Thread.Sleep(20);
            long end = System.Diagnostics.Stopwatch.GetTimestamp() + burstTicks;
            while (System.Diagnostics.Stopwatch.GetTimestamp() < end)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            Interlocked.Increment(ref _work);
        }

        GC.KeepAlive(x);
    }
}
