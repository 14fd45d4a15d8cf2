namespace Picollo.Benchmarks;

/// <summary>
/// Keeps one CPU busy with a dependent arithmetic loop on a background thread pinned to it, the "other core kept
/// busy" of the verdict experiment: the measured thread shares the machine (memory bus, last-level cache, the kernel's
/// timer and scheduler work) with a compute-bound neighbour, as on a loaded CI runner, without being preempted by it.
/// </summary>
internal sealed class CpuSpinner : IDisposable
{
    private readonly Thread _thread;
    private volatile bool _stop;

    public CpuSpinner(int cpu)
    {
        Cpu = cpu;
        _thread = new Thread(Spin) { IsBackground = true, Name = "cpu-spinner" };
        _thread.Start();
    }

    public int Cpu { get; }

    /// <summary>Blocks of 1,000 steps done by the spinner, proof that it ran.</summary>
    public long Iterations { get; private set; }

    /// <summary>The chain's last value, stored so the JIT cannot drop the loop.</summary>
    public ulong Checksum { get; private set; }

    /// <summary>Restricts the calling thread to <paramref name="cpu"/>; false when sched_setaffinity refuses.</summary>
    public static unsafe bool PinCurrentThread(int cpu)
    {
        ulong* mask = stackalloc ulong[Interop.Sched.CpuSetWords];
        new Span<ulong>(mask, Interop.Sched.CpuSetWords).Clear();
        mask[cpu / 64] = 1UL << (cpu % 64);
        return Interop.Sched.SetAffinity(0, Interop.Sched.CpuSetBytes, mask) == 0;
    }

    public void Dispose()
    {
        _stop = true;
        _thread.Join();
    }

    private void Spin()
    {
        if (!PinCurrentThread(Cpu))
            throw new InvalidOperationException($"sched_setaffinity refused CPU {Cpu} for the spinner.");

        ulong x = 1;
        long iterations = 0;
        while (!_stop)
        {
            for (int i = 0; i < 1_000; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            iterations++;
        }

        Iterations = iterations;
        Checksum = x;
    }
}
