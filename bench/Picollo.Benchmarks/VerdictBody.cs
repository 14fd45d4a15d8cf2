using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// A test body of the verdict experiment (issue 10) at a given amount of work: +10 % work is 10 % more of everything the
/// body does, so the time counters should rise by about that much.
/// </summary>
/// <remarks>
/// Each call's chain starts from the previous call's result. With independent calls, the out-of-order core overlapped the
/// end of one call with the start of the next in some measurements and not in others (a loop-exit prediction that is
/// learnt or not), and the same short chain ran at two speeds 18 % apart within one process: a property of that code,
/// not noise, that would have counted as false failures (docs/VERDICTS.md, "Limits").
/// </remarks>
/// <param name="Name">The body's name in the results.</param>
/// <param name="Description">What it does, for RESULTS.md.</param>
/// <param name="Measure">Measures the body at a work factor (1.0 unchanged, 1.3 = +30 %).</param>
internal sealed record VerdictBody(string Name, string Description, Func<PerfOptions, double, PerfResult> Measure)
{
    /// <summary>LCG steps of the short chain: ≈ 100 ns on the 2,096 MHz development host (about 1.1 ns a step there).</summary>
    private const int ShortSteps = 90;

    /// <summary>LCG steps of the long chain: ≈ 10 µs there.</summary>
    private const int LongSteps = 9_000;

    /// <summary>Units of the allocating body: each allocates a byte[8] kept reachable and runs 2 chain steps (≈ 100 ns in all).</summary>
    internal const int AllocatingUnits = 10;

    public static VerdictBody[] All { get; } =
    [
        new("short", $"a dependent chain of {ShortSteps} multiply-adds, no allocation (≈ 100 ns)",
            static (options, work) => Perf.Measure(options, new Chain(Scale(ShortSteps, work)), Chain.Run)),
        new("allocating", $"{AllocatingUnits} units of `new byte[8]` (kept reachable) and 2 multiply-adds (≈ 100 ns, 320 B)",
            static (options, work) => Perf.Measure(options, new Allocating(Scale(AllocatingUnits, work)), Allocating.Run)),
        new("long", $"a dependent chain of {LongSteps:N0} multiply-adds, no allocation (≈ 10 µs)",
            static (options, work) => Perf.Measure(options, new Chain(Scale(LongSteps, work)), Chain.Run)),
    ];

    private static int Scale(int amount, double work) => (int)Math.Round(amount * work);

    /// <summary>A chain of dependent 64-bit LCG steps.</summary>
    private sealed class Chain(int steps)
    {
        private readonly int _steps = steps;
        private ulong _x = 1;

        public static ulong Run(Chain chain)
        {
            ulong x = chain._x;
            for (int i = 0; i < chain._steps; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            chain._x = x;
            return x;
        }
    }

    /// <summary>Units of one small allocation, stored so escape analysis cannot put it on the stack, and two chain steps.</summary>
    internal sealed class Allocating(int units)
    {
        private readonly object[] _sink = new object[units];
        private ulong _x = 1;

        public static ulong Run(Allocating body)
        {
            object[] sink = body._sink;
            ulong x = body._x;
            for (int i = 0; i < sink.Length; i++)
            {
                byte[] array = new byte[8];
                sink[i] = array;
                x = (x * 6364136223846793005UL) + 1442695040888963407UL + (ulong)array.Length;
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            }

            body._x = x;
            return x;
        }
    }
}
