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
/// <param name="Compare">
/// Compares the body at a work factor (the candidate) with the body unchanged (the reference) by
/// <see cref="Perf.Compare{TState, TResult}(PerfOptions, TState, Func{TState, TResult}, Func{TState, TResult})"/> (the
/// paired experiment, issue 25); at 1.0 an A/A comparison: the very same delegate on the same state on both sides. The
/// work is exact on average over a cycle of calls, not rounded per call as <paramref name="Measure"/>'s is.
/// </param>
internal sealed record VerdictBody(string Name, string Description, Func<PerfOptions, double, PerfResult> Measure, Func<PerfOptions, double, PerfComparison> Compare)
{
    /// <summary>
    /// Measures the body at a work factor of its time alone (the verdict experiment, issue 24): the chains are time alone
    /// already; the allocating body keeps its allocations and adds multiply-adds, as many as make its time the factor beside the cell's noise
    /// (<see cref="AllocatingCalibration"/>), so its time verdict is confirmed on its own, not cut short by an exact
    /// allocated-bytes failure.
    /// </summary>
    public Func<PerfOptions, double, PerfResult> MeasureTime { get; init; } = Measure;

    /// <summary>LCG steps of the short chain: ≈ 100 ns on the 2,096 MHz development host (about 1.1 ns a step there).</summary>
    private const int ShortSteps = 90;

    /// <summary>LCG steps of the long chain: ≈ 10 µs there.</summary>
    private const int LongSteps = 9_000;

    /// <summary>Units of the allocating body: each allocates a byte[8] kept reachable and runs 2 chain steps (≈ 100 ns in all).</summary>
    internal const int AllocatingUnits = 10;

    public static VerdictBody[] All { get; } =
    [
        new("short", $"a dependent chain of {ShortSteps} multiply-adds, no allocation (≈ 100 ns)",
            static (options, work) => Perf.Measure(options, new Chain(Scale(ShortSteps, work)), Chain.Run),
            static (options, work) => Paired(options, new ChainSides(ShortSteps, work), ChainSides.Reference, ChainSides.Candidate, work)),
        new("allocating", $"{AllocatingUnits} units of `new byte[8]` (kept reachable) and 2 multiply-adds (≈ 100 ns, 320 B); the `verdicts` arms add multiply-adds only, calibrated to the work factor of its time, allocations unchanged, each allocation waiting for the chain",
            static (options, work) => Perf.Measure(options, new Allocating(Scale(AllocatingUnits, work)), Allocating.Run),
            static (options, work) => Paired(options, new AllocatingSides(AllocatingUnits, work), AllocatingSides.Reference, AllocatingSides.Candidate, work))
        {
            MeasureTime = static (options, work) =>
                Perf.Measure(options, new Allocating(AllocatingUnits) { Extra = AllocatingCalibration.ExtraSteps(work) }, Allocating.RunInSeries),
        },
        new("long", $"a dependent chain of {LongSteps:N0} multiply-adds, no allocation (≈ 10 µs)",
            static (options, work) => Perf.Measure(options, new Chain(Scale(LongSteps, work)), Chain.Run),
            static (options, work) => Paired(options, new ChainSides(LongSteps, work), ChainSides.Reference, ChainSides.Candidate, work)),
    ];

    private static int Scale(int amount, double work) => (int)Math.Round(amount * work);

    // A/A (work 1.0): the reference's delegate on both sides, on the reference's instance.
    private static PerfComparison Paired<TSides>(PerfOptions options, TSides sides, Func<TSides, ulong> reference, Func<TSides, ulong> candidate, double work) =>
        Perf.Compare(options, sides, reference, work == 1.0 ? reference : candidate);

    /// <summary>
    /// Per-call amounts of work over a cycle of <see cref="Length"/> calls whose mean is exactly amount × work (to 1/
    /// <see cref="Length"/> of a step or unit), spread evenly: +2 % of 10 allocating units is 10 units in 8 calls of 10 and
    /// 11 in 2, where rounding per call would leave 10 (no change at all) and +5 % would round to 10 or 11.
    /// </summary>
    private sealed class Cycle<T>(T[] amounts)
    {
        public const int Length = 10;

        private readonly T[] _amounts = amounts;
        private int _next;

        public static int[] Spread(int amount, double work)
        {
            long total = (long)Math.Round(amount * work * Length);
            return [.. Enumerable.Range(0, Length).Select(j => (int)((((j + 1) * total) / Length) - ((j * total) / Length)))];
        }

        public T Next()
        {
            T amount = _amounts[_next];
            _next = _next == _amounts.Length - 1 ? 0 : _next + 1;
            return amount;
        }
    }

    /// <summary>
    /// Both sides of a comparison of the chain as the one state <c>Perf.Compare</c> passes both bodies: each side its own
    /// chain and cycle of step counts, run by the same shape of code (the next count, then <see cref="Chain.Run"/>).
    /// </summary>
    private sealed class ChainSides(int steps, double work)
    {
        private readonly Chain _reference = new(steps);
        private readonly Chain _candidate = new(steps);
        private readonly Cycle<int> _referenceSteps = new(Cycle<int>.Spread(steps, 1.0));
        private readonly Cycle<int> _candidateSteps = new(Cycle<int>.Spread(steps, work));

        public static ulong Reference(ChainSides sides)
        {
            sides._reference.Steps = sides._referenceSteps.Next();
            return Chain.Run(sides._reference);
        }

        public static ulong Candidate(ChainSides sides)
        {
            sides._candidate.Steps = sides._candidateSteps.Next();
            return Chain.Run(sides._candidate);
        }
    }

    /// <summary>Both sides of a comparison of the allocating body: each side its own body and cycle of sinks (one per unit count).</summary>
    private sealed class AllocatingSides(int units, double work)
    {
        private readonly Allocating _reference = new(units);
        private readonly Allocating _candidate = new(units);
        private readonly Cycle<object[]> _referenceSinks = new(Sinks(units, 1.0));
        private readonly Cycle<object[]> _candidateSinks = new(Sinks(units, work));

        public static ulong Reference(AllocatingSides sides)
        {
            sides._reference.Sink = sides._referenceSinks.Next();
            return Allocating.Run(sides._reference);
        }

        public static ulong Candidate(AllocatingSides sides)
        {
            sides._candidate.Sink = sides._candidateSinks.Next();
            return Allocating.Run(sides._candidate);
        }

        // One sink per distinct unit count, so a call allocates as many units as its count.
        private static object[][] Sinks(int units, double work)
        {
            var sinks = new Dictionary<int, object[]>();
            return [.. Cycle<object[]>.Spread(units, work).Select(n => sinks.TryGetValue(n, out object[]? sink) ? sink : sinks[n] = new object[n])];
        }
    }

    /// <summary>A chain of dependent 64-bit LCG steps.</summary>
    private sealed class Chain(int steps)
    {
        private int _steps = steps;
        private ulong _x = 1;

        /// <summary>Sets the steps of the next calls (a comparison's cycle of counts).</summary>
        public int Steps
        {
            set => _steps = value;
        }

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
        private object[] _sink = new object[units];
        private ulong _x = 1;
        private int _extra;

        // Always 0 (a unit count is never negative), but an instance field the JIT cannot fold: RunInSeries masks the chain
        // with it into each array's length.
        private readonly ulong _zero = (ulong)(units >> 31);

        /// <summary>
        /// Multiply-adds each call of <see cref="RunInSeries"/> runs after its units: time without allocations (the verdict
        /// experiment's arms). <see cref="Run"/>, the body of paired, ab and episodes, has none.
        /// </summary>
        internal int Extra
        {
            set => _extra = value;
        }

        /// <summary>Sets the sink of the next calls: they allocate as many units as it holds (a comparison's cycle of counts).</summary>
        internal object[] Sink
        {
            set => _sink = value;
        }

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

        /// <summary>
        /// <see cref="Run"/> with each allocation waiting for the chain (its length is 8 plus the chain masked by a zero the
        /// JIT cannot see), so the extra steps add their time instead of hiding beside the allocations: with them apart, 18
        /// steps that cost +30 % at 200 steps' rate made +6 %, and steps calibrated to +30 % on an idle machine made +13 … +28 %
        /// beside a spinning sibling core (bench verdicts, 2026-11-28). Allocates exactly as <see cref="Run"/> does.
        /// </summary>
        public static ulong RunInSeries(Allocating body)
        {
            object[] sink = body._sink;
            ulong x = body._x, zero = body._zero;
            for (int i = 0; i < sink.Length; i++)
            {
                byte[] array = new byte[8 + (int)(x & zero)];
                sink[i] = array;
                x = (x * 6364136223846793005UL) + 1442695040888963407UL + (ulong)array.Length;
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            }

            for (int i = 0; i < body._extra; i++)
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;

            body._x = x;
            return x;
        }
    }
}
