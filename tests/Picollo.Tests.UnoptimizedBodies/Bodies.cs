namespace Picollo.Tests.UnoptimizedBodies;

/// <summary>Measured bodies in an assembly built without optimizations.</summary>
public static class Bodies
{
    /// <summary>A lambda, as most measured bodies are: its method is the compiler's, in this assembly.</summary>
    public static Func<int, long> ChainLambda { get; } = static n => Chain(n) + 1;

    /// <summary>A dependency chain of <paramref name="n"/> steps (the same work as the engine tests' own chain).</summary>
    public static long Chain(int n)
    {
        long x = n;
        for (int i = 0; i < n; i++)
            x += x ^ i;
        return x;
    }

    /// <summary>A method measured as a method group, by one test only, so its first compilation happens in that test.</summary>
    public static long Xorshift(int n)
    {
        ulong x = (ulong)n + 1;
        for (int i = 0; i < n; i++)
        {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }

        return (long)x;
    }
}
