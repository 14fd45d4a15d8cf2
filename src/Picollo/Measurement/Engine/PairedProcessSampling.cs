using System.Diagnostics;
using System.Runtime;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Measurement.Conditions;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The sampling stage of a <c>picollo ab</c> worker whose measurement is paired (<see cref="PairedTurn.IsPaired"/>):
/// one sample each time the tool says so, the other build's process taking its sample between two of this one's, so that
/// sample k of each side comes from the tool's pair k. Each sample is read at its own start and end: the wait for the turn
/// sits between samples, outside what they count.
/// </summary>
/// <remarks>No reference probes: as in <see cref="Paired.PairedSampling"/>, the pair is its own reference.</remarks>
internal static class PairedProcessSampling
{
    /// <summary>Takes samples until the tool ends sampling (it asks for at most <see cref="PerfOptions.Samples"/>).</summary>
    /// <param name="options">The run's options.</param>
    /// <param name="body">The measured body.</param>
    /// <param name="set">The counters read at each sample's start and end.</param>
    /// <param name="operations">Operations per sample, the count both sides agreed.</param>
    /// <param name="bytesPerOperation">The pilot's allocation estimate, which sizes the no-GC region.</param>
    /// <param name="deadline">
    /// After this <see cref="Stopwatch"/> timestamp, and with the least samples, this side asks to stop: twice an ordinary
    /// run's, counted from the first sample, as half of the time goes to the other side's samples.
    /// </param>
    /// <param name="turn">The measurement's turn.</param>
    /// <returns>The samples and how they ran.</returns>
    internal static SamplingOutcome Run<TLoop>(
        PerfOptions options, TLoop body, CounterSet set, long operations, double bytesPerOperation, long deadline, PairedTurn turn)
        where TLoop : struct, IOperationLoop
    {
        var readings = new SampleReadings(options.Samples, set.Count);
        int minSamples = Math.Min(options.MinSamples, options.Samples);
        var scratch = new ulong[2 * Math.Max(set.Count, 1)];

        // Compiled at its first call with no samples, so its own compilation is not one on the measuring thread during
        // sampling.
        Loop(body, set, operations, new SampleReadings(0, set.Count), scratch, 0, long.MaxValue, turn, out _);
        Sampling.SettleGC();
        bool noGC = Sampling.TryStartNoGCRegion(options, bytesPerOperation * operations * options.Samples, out string? noGCNote);
        JitCounts jit = JitCounts.Now();
        long inside = 0;
        try
        {
            turn.Ready();
            readings.Taken = Loop(body, set, operations, readings, scratch, minSamples, deadline, turn, out inside);
        }
        finally
        {
            // This thread's compilations are those inside the samples: the turn's calls between them (the wait, the byte that
            // says done, the socket under them) compile here too, at their first calls. Counted, they made every worker's
            // record say "3 method(s) were JIT-compiled on the measuring thread", code that was not final (issue 24).
            jit = (JitCounts.Now() - jit) with { Thread = inside };
            noGCNote = Sampling.EndNoGCRegion(noGC) ?? noGCNote;
        }

        return new SamplingOutcome(readings, jit, noGC && noGCNote is null, noGCNote);
    }

    /// <summary>
    /// The loop: wait for the turn, read, run, read, say done; allocates nothing. <paramref name="inside"/> is what this
    /// thread JIT-compiled inside the samples.
    /// </summary>
    /// <returns>The samples taken.</returns>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Loop<TLoop>(
        TLoop body, CounterSet set, long operations, SampleReadings readings, ulong[] scratch, int minSamples, long deadline,
        PairedTurn turn, out long inside)
        where TLoop : struct, IOperationLoop
    {
        inside = 0;
        ulong[] boundaries = readings.Boundaries;
        long[] times = readings.Times;
        int width = readings.Width;
        Span<ulong> start = scratch.AsSpan(0, width), end = scratch.AsSpan(width, width);
        int samples = times.Length;
        if (samples == 0)
            return 0;

        // The tool sends E after the last pair, also after the most samples either side asked for: the stream stays in step.
        int k = 0;
        while (turn.WaitForGo())
        {
            if (k == samples)
                throw PairedPeer.Protocol("G after the last sample");
            long compiled = JitInfo.GetCompiledMethodCount(currentThread: true);
            set.ReadCumulative(start);
            long t0 = Stopwatch.GetTimestamp();
            body.Run(operations);
            set.ReadCumulative(end);
            long t1 = Stopwatch.GetTimestamp();
            inside += JitInfo.GetCompiledMethodCount(currentThread: true) - compiled;

            // Cumulative, as the ordinary loop leaves them: the result stages take deltas of neighbouring boundaries.
            int row = k * width;
            for (int slot = 0; slot < width; slot++)
                boundaries[row + width + slot] = boundaries[row + slot] + (end[slot] - start[slot]);
            times[k] = t1 - t0;
            k++;
            turn.Taken(t1 > deadline && k >= minSamples);
        }

        return k;
    }
}
