using System.Runtime.CompilerServices;

namespace Picollo.Tests.Measurement;

/// <summary>Bodies with known costs for the engine tests.</summary>
internal static class MeasuredBodies
{
    // A static sink makes every array escape: .NET 10 can stack-allocate a small array that does not.
    private static byte[]? s_sink;

    /// <summary>Allocates one byte[64]: 88 bytes on x64 (64 payload + 8 header + 8 method table + 8 length).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Allocate64() => s_sink = new byte[64];

    /// <summary>
    /// A dependency chain of <paramref name="n"/> steps: each step's xor and add need the previous step's result, so
    /// the work is n × (xor + add) latencies and cannot be vectorized, reordered or folded into a closed form.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long Chain(int n)
    {
        long x = n;
        for (int i = 0; i < n; i++)
            x += x ^ i;
        return x;
    }

    /// <summary>
    /// <see cref="Chain"/> compiled fully optimized at its first call: no tier-0 or on-stack-replaced code to run first. In a
    /// test process that keeps compiling (other test classes beside it), the tier-1 delay keeps restarting and a chain
    /// called from a measured body stayed in its on-stack-replaced code, where twice the steps cost 1.2× (each call spends
    /// its first iterations in tier-0 code); the engine's warmup note says so, and the paired test needs final code.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public static long OptimizedChain(int n)
    {
        long x = n;
        for (int i = 0; i < n; i++)
            x += x ^ i;
        return x;
    }
}
