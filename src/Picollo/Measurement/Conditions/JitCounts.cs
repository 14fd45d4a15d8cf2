using System.Runtime;
using System.Runtime.CompilerServices;

namespace Picollo.Measurement.Conditions;

/// <summary>Methods JIT-compiled so far, process-wide and by the calling thread (<see cref="JitInfo"/>; allocation-free reads).</summary>
/// <param name="Process">Methods compiled by every thread, tier-1 re-compilations on the runtime's background thread included.</param>
/// <param name="Thread">Methods compiled on the calling thread: first calls (tier 0), on-stack replacement, dynamic methods.</param>
internal readonly record struct JitCounts(long Process, long Thread)
{
    /// <summary>The counts now.</summary>
    /// <remarks>
    /// Fully optimized at its first call, so the constructor is inlined: at tier 0 the constructor was compiled on its first
    /// call, after the reads, and the engine's first measurement in a process counted that compilation as the body's.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static JitCounts Now() =>
        new(JitInfo.GetCompiledMethodCount(currentThread: false), JitInfo.GetCompiledMethodCount(currentThread: true));

    /// <summary>The compilations between two readings on the same thread.</summary>
    public static JitCounts operator -(JitCounts after, JitCounts before) =>
        new(after.Process - before.Process, after.Thread - before.Thread);
}
