using System.Diagnostics;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;

namespace Picollo.Measurement.Paired;

/// <summary>
/// The sampling stage of a paired comparison: the reference's and the candidate's samples in lock-step pairs on one
/// thread, the same operations per sample on both sides, the side that goes first alternating ABBA, inside one no-GC
/// region when both sides' allocations fit it; then the readings split into one <see cref="SampleReadings"/> per side,
/// sample k of each side from pair k.
/// </summary>
/// <remarks>
/// No reference probes run between the samples: what they are for (telling a slower machine from slower code) is what
/// the pair does by itself, as both sides see the same moment of the machine.
/// </remarks>
internal static class PairedSampling
{
    /// <summary>
    /// Takes up to <see cref="PerfOptions.Samples"/> pairs; fewer once past <paramref name="deadline"/> (never fewer
    /// than <see cref="PerfOptions.MinSamples"/>).
    /// </summary>
    /// <param name="options">The run's options: the pairs, the least pairs, the no-GC region.</param>
    /// <param name="reference">The reference body.</param>
    /// <param name="candidate">The candidate body.</param>
    /// <param name="set">The counters read at each boundary.</param>
    /// <param name="operations">Operations per sample, on both sides.</param>
    /// <param name="bytesPerOperation">Both pilots' allocation estimates together, which size the no-GC region.</param>
    /// <param name="deadline">The <see cref="Stopwatch"/> timestamp after which sampling stops once it has the least pairs.</param>
    /// <param name="cancellation">Stops sampling between two pairs.</param>
    /// <returns>
    /// The reference's and the candidate's readings (the same number of samples), the JIT activity and the no-GC
    /// region's outcome.
    /// </returns>
    internal static (SampleReadings Reference, SampleReadings Candidate, JitCounts Jit, bool UsedNoGCRegion, string? NoGCRegionNote)
        Run<TReference, TCandidate>(
            PerfOptions options,
            TReference reference,
            TCandidate candidate,
            CounterSet set,
            long operations,
            double bytesPerOperation,
            long deadline,
            CancellationToken cancellation)
        where TReference : struct, IOperationLoop
        where TCandidate : struct, IOperationLoop
    {
        int pairs = options.Samples;
        var readings = new SampleReadings(2 * pairs, set.Count);
        int minPairs = Math.Min(options.MinSamples, pairs);
        // The loop compiles at its first call (fully optimized): once with no pairs here, so its own compilation is not a
        // compilation on the measuring thread during sampling, which says the measured code changed.
        Loop(reference, candidate, set, operations, new SampleReadings(0, set.Count), 0, long.MaxValue, CancellationToken.None);
        Sampling.SettleGC();
        bool noGC = Sampling.TryStartNoGCRegion(options, bytesPerOperation * operations * pairs, out string? noGCNote);
        JitCounts jit = JitCounts.Now();
        int taken;
        try
        {
            taken = Loop(reference, candidate, set, operations, readings, minPairs, deadline, cancellation);
        }
        finally
        {
            jit = JitCounts.Now() - jit;
            noGCNote = Sampling.EndNoGCRegion(noGC) ?? noGCNote;
        }

        cancellation.ThrowIfCancellationRequested();
        readings.Taken = 2 * taken;
        return (Side(readings, taken, referenceSide: true), Side(readings, taken, referenceSide: false),
            jit, noGC && noGCNote is null, noGCNote);
    }

    /// <summary>Whether the reference runs first in pair <paramref name="pair"/>: pairs go AB, BA, BA, AB, and again.</summary>
    /// <param name="pair">The pair's index.</param>
    /// <returns><see langword="true"/> for an AB pair.</returns>
    internal static bool ReferenceFirst(int pair) => ((pair + 1) & 2) == 0;

    /// <summary>
    /// The paired loop: one read of every counter at each boundary, so the read that ends a pair's first sample starts its
    /// second; nothing else between boundaries but the bodies, a clock read for the deadline and a look at the
    /// cancellation. Allocates nothing.
    /// </summary>
    /// <returns>The complete pairs taken.</returns>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Loop<TReference, TCandidate>(
        TReference reference,
        TCandidate candidate,
        CounterSet set,
        long operations,
        SampleReadings readings,
        int minPairs,
        long deadline,
        CancellationToken cancellation)
        where TReference : struct, IOperationLoop
        where TCandidate : struct, IOperationLoop
    {
        ulong[] boundaries = readings.Boundaries;
        long[] times = readings.Times;
        int width = readings.Width;
        int pairs = times.Length / 2;
        set.ReadCumulative(boundaries.AsSpan(0, width));
        long previous = Stopwatch.GetTimestamp();
        int k = 0;
        while (k < pairs)
        {
            int row = 2 * k;
            bool referenceFirst = ReferenceFirst(k);
            if (referenceFirst)
                reference.Run(operations);
            else
                candidate.Run(operations);
            set.ReadCumulative(boundaries.AsSpan((row + 1) * width, width));
            long middle = Stopwatch.GetTimestamp();
            times[row] = middle - previous;

            if (referenceFirst)
                candidate.Run(operations);
            else
                reference.Run(operations);
            set.ReadCumulative(boundaries.AsSpan((row + 2) * width, width));
            long now = Stopwatch.GetTimestamp();
            times[row + 1] = now - middle;
            previous = now;
            k++;
            if ((now > deadline && k >= minPairs) || cancellation.IsCancellationRequested)
                break;
        }

        return k;
    }

    // One side's samples as readings of their own: its deltas summed into cumulative boundaries, so the result stages read
    // them as they read an ordinary run's.
    private static SampleReadings Side(SampleReadings interleaved, int pairs, bool referenceSide)
    {
        int width = interleaved.Width;
        var side = new SampleReadings(pairs, width) { Taken = pairs };
        for (int k = 0; k < pairs; k++)
        {
            int sample = (2 * k) + (ReferenceFirst(k) == referenceSide ? 0 : 1);
            for (int slot = 0; slot < width; slot++)
                side.Boundaries[((k + 1) * width) + slot] = side.Boundaries[(k * width) + slot] + interleaved.Delta(sample, slot);
            side.Times[k] = interleaved.Times[sample];
        }

        return side;
    }
}
