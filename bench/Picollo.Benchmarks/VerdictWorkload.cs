namespace Picollo.Benchmarks;

/// <summary>
/// The sample test body of the verdict experiments (issue 5): <see cref="Arrays"/> allocations of
/// <c>byte[8]</c> (32 bytes each on 64-bit: 16 bytes of header and method table, 8 of length, 8 of data), kept
/// reachable so escape analysis cannot put them on the stack, then <see cref="Iterations"/> steps of a dependent
/// multiply-add chain (one 64-bit LCG step: imul + add, about 4 cycles, which nothing can overlap).
/// </summary>
/// <remarks>
/// 10 arrays and 50 steps take about 100 ns; 11 arrays are exactly +10% allocated bytes and 65 steps are +30% work
/// (the chain, not the whole body: the allocations stay as they are).
/// </remarks>
internal sealed class VerdictWorkload
{
    public const int BaselineArrays = 10;

    public const int BaselineIterations = 50;

    private const int ArrayLength = 8;

    private readonly object[] _sink;

    public VerdictWorkload(int arrays, int iterations)
    {
        _sink = new object[arrays];
        Iterations = iterations;
    }

    public static VerdictWorkload Baseline { get; } = new(BaselineArrays, BaselineIterations);

    public int Arrays => _sink.Length;

    public int Iterations { get; }

    public static ulong Run(VerdictWorkload workload)
    {
        object[] sink = workload._sink;
        ulong x = (ulong)sink.Length;
        for (int i = 0; i < sink.Length; i++)
        {
            byte[] array = new byte[ArrayLength];
            sink[i] = array;
            x += (ulong)array.Length;
        }

        for (int i = 0; i < workload.Iterations; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;

        return x;
    }
}
