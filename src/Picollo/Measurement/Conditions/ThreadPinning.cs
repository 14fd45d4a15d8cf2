using System.Runtime.InteropServices;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// Pins the calling thread to the CPU it runs on and restores its previous affinity on <see cref="Dispose"/>.
/// Never throws because of the machine: when pinning is impossible the run continues unpinned and
/// <see cref="FailureReason"/> says why.
/// </summary>
/// <remarks>
/// Pinning to the current CPU (rather than a chosen one) avoids a migration at the start of the run, and keeps
/// per-CPU state (caches, branch predictors, the TSC of that core) the same for every sample.
/// </remarks>
internal sealed class ThreadPinning : IDisposable
{
    private readonly ulong[] _previousMask = new ulong[Interop.Sched.CpuSetWords];
    private bool _restore;

    private ThreadPinning(int? cpu, string? failureReason)
    {
        Cpu = cpu;
        FailureReason = failureReason;
    }

    /// <summary>The CPU the thread is pinned to, or <see langword="null"/> when it is not pinned.</summary>
    public int? Cpu { get; private set; }

    /// <summary>Why the thread is not pinned; <see langword="null"/> when it is, or when pinning was not asked for.</summary>
    public string? FailureReason { get; private set; }

    /// <summary>An instance that pins nothing (pinning turned off in the options).</summary>
    public static ThreadPinning None() => new(null, null);

    /// <summary>Pins the calling thread to its current CPU.</summary>
    public static ThreadPinning PinToCurrentCpu() => Pin(null);

    /// <summary>
    /// Pins the calling thread to <paramref name="cpu"/>: the two worker processes of a paired comparison
    /// (<see cref="Engine.PairedPeer"/>) measure on the same CPU, so a pair's two samples see the same core.
    /// </summary>
    /// <param name="cpu">The CPU, from 0.</param>
    /// <returns>The pinning; unpinned with the reason when the CPU cannot be used.</returns>
    public static ThreadPinning PinTo(int cpu) => Pin(cpu);

    private static unsafe ThreadPinning Pin(int? wanted)
    {
        if (!OperatingSystem.IsLinux())
            return new ThreadPinning(null, "Thread pinning uses sched_setaffinity, which only Linux has; the run was not pinned.");

        var pinning = new ThreadPinning(null, null);
        fixed (ulong* previous = pinning._previousMask)
        {
            if (Interop.Sched.GetAffinity(0, Interop.Sched.CpuSetBytes, previous) != 0)
                return Failed(pinning, "sched_getaffinity");

            int cpu = wanted ?? Interop.Sched.GetCpu();
            if (cpu < 0)
                return Failed(pinning, "sched_getcpu");
            if (cpu >= Interop.Sched.CpuSetBytes * 8)
            {
                pinning.FailureReason = MeasurementMessages.CpuOutsideAffinityMask(cpu, Interop.Sched.CpuSetBytes * 8);
                return pinning;
            }

            ulong* mask = stackalloc ulong[Interop.Sched.CpuSetWords];
            new Span<ulong>(mask, Interop.Sched.CpuSetWords).Clear();
            mask[cpu / 64] = 1UL << (cpu % 64);
            if (Interop.Sched.SetAffinity(0, Interop.Sched.CpuSetBytes, mask) != 0)
                return Failed(pinning, "sched_setaffinity");

            pinning.Cpu = cpu;
            pinning._restore = true;
            return pinning;
        }
    }

    /// <summary>Restores the affinity the thread had before; a failure to restore is not thrown (the run's results stand).</summary>
    public unsafe void Dispose()
    {
        if (!_restore)
            return;
        _restore = false;
        fixed (ulong* previous = _previousMask)
            _ = Interop.Sched.SetAffinity(0, Interop.Sched.CpuSetBytes, previous);
    }

    private static ThreadPinning Failed(ThreadPinning pinning, string call)
    {
        int errno = Marshal.GetLastPInvokeError();
        pinning.FailureReason = MeasurementMessages.PinningFailed(call, Interop.Errno.Describe(errno));
        return pinning;
    }
}
