using System.Diagnostics;
using Picollo.Counters;
using static Picollo.Measurement.Engine.EngineClock;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The pilot stage: estimates the boundary cost (one read of every counter) and one operation's time and allocation,
/// then chooses the fewest operations per sample that make the boundary cost less than <see cref="BoundaryShare"/> of a
/// sample, within the time budget. When the run reads the portable <c>clock</c>, one step of that clock must be under the
/// same share of a sample too: its rate may be coarse (100 ns on Windows), and a sample of few steps would carry its
/// rounding (docs/COUNTERS.md, "The portable clock").
/// </summary>
internal static class Pilot
{
    /// <summary>The largest share of a sample the boundary may cost: the pilot's target.</summary>
    internal const double BoundaryShare = 0.01;

    // Back-to-back reads timed to estimate the boundary cost; the fastest of several rounds wins, as preemption only ever
    // adds time.
    private const int BoundaryReads = 32;
    private const int BoundaryRounds = 5;

    // The pilot aims below 3/4 of the boundary share: its estimate is the fastest of three runs, while samples are timed
    // at their median, and the boundary costs more after the body has evicted the reads' code and data from the caches.
    private const double Margin = 0.75;

    /// <summary>Runs the pilot after warmup.</summary>
    /// <param name="options">The run's options: the samples to fit in the budget, or fixed operations per sample.</param>
    /// <param name="body">The measured body.</param>
    /// <param name="set">The counters read at each boundary.</param>
    /// <param name="scratch">A read buffer of the set's width.</param>
    /// <param name="budgetStart">
    /// The <see cref="Stopwatch"/> timestamp the pilot's and the samples' share of the budget counts from.
    /// </param>
    /// <param name="budgetTicks">The time budget in <see cref="Stopwatch"/> ticks.</param>
    internal static PilotOutcome Run<TLoop>(
        PerfOptions options, TLoop body, CounterSet set, ulong[] scratch, long budgetStart, long budgetTicks)
        where TLoop : struct, IOperationLoop
    {
        // The shortest span a sample must dwarf: the boundary's cost, or the clock's step where that is longer.
        double clockStepNs = set.IndexOf(CounterNames.Clock) >= 0 ? PortableClock.ResolutionNanoseconds : 0;
        (double boundaryNs, double operationNs, double bytesPerOperation) = Estimate(body, set, scratch, budgetTicks / 20, clockStepNs);
        double floorNs = Math.Max(boundaryNs, clockStepNs);

        long operations = options.OperationsPerSample;
        bool boundByBudget = false;
        if (operations == 0)
        {
            double remainingNs = Math.Max(0, ToNanoseconds(budgetTicks - (Stopwatch.GetTimestamp() - budgetStart)));
            long wanted = (long)Math.Ceiling(floorNs / (BoundaryShare * Margin) / Math.Max(operationNs, 0.01));
            long affordable = (long)Math.Floor(remainingNs * 0.8 / options.Samples / Math.Max(operationNs, 0.01));
            operations = Math.Max(1, Math.Min(wanted, affordable));
            boundByBudget = operations < wanted;
        }

        return new PilotOutcome(boundaryNs, operationNs, bytesPerOperation, operations, boundByBudget);
    }

    /// <summary>
    /// Estimates the boundary cost and one operation's time and allocation, running the body in doubling batches until a
    /// batch is long enough that a boundary (and a step of the clock, <paramref name="clockStepNs"/>) would be less than
    /// <see cref="BoundaryShare"/> of it, or reaches <paramref name="capTicks"/>.
    /// </summary>
    private static (double BoundaryNs, double OperationNs, double BytesPerOperation) Estimate<TLoop>(
        TLoop body, CounterSet set, ulong[] scratch, long capTicks, double clockStepNs)
        where TLoop : struct, IOperationLoop
    {
        double boundaryNs = double.MaxValue;
        for (int round = 0; round < BoundaryRounds; round++)
        {
            long t0 = Stopwatch.GetTimestamp();
            for (int i = 0; i < BoundaryReads; i++)
                set.ReadCumulative(scratch);
            boundaryNs = Math.Min(boundaryNs, ToNanoseconds(Stopwatch.GetTimestamp() - t0) / BoundaryReads);
        }

        double targetNs = Math.Max(boundaryNs, clockStepNs) / (BoundaryShare * Margin);
        double capNs = Math.Max(ToNanoseconds(capTicks), targetNs);
        long count = 1;
        while (true)
        {
            // The fastest of three runs of the same batch: preemption only adds time.
            double batchNs = double.MaxValue;
            long bytes = long.MaxValue;
            for (int repeat = 0; repeat < 3; repeat++)
            {
                long allocated = GC.GetAllocatedBytesForCurrentThread();
                long t0 = Stopwatch.GetTimestamp();
                body.Run(count);
                long t1 = Stopwatch.GetTimestamp();
                bytes = Math.Min(bytes, GC.GetAllocatedBytesForCurrentThread() - allocated);
                batchNs = Math.Min(batchNs, ToNanoseconds(t1 - t0));
                if (batchNs >= capNs)
                    break;
            }

            if (batchNs >= targetNs || batchNs >= capNs || count >= (1L << 40))
                return (boundaryNs, batchNs / count, (double)bytes / count);

            // Jump close to the target instead of doubling all the way (a 1 ns body would need many rounds).
            long scaled = batchNs <= 0 ? count * 16 : (long)Math.Ceiling(count * targetNs / batchNs * 1.1);
            count = Math.Clamp(scaled, count * 2, count * 1024);
        }
    }
}
