using System.Collections.Immutable;
using System.Diagnostics;
using System.Runtime;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Interop;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;

namespace Picollo.Simulation;

/// <summary>
/// The simulated part of a measurement, in a process that callgrind runs (docs/COUNTERS.md, "Simulated counters"). Only
/// the measuring thread's counts between the client requests around the loop are counted.
/// </summary>
/// <remarks>
/// <para>
/// Stages: a warmup run unsimulated (<c>--instr-atstart=no</c>), which is several times faster than simulated, through the
/// very path the samples take (the region's requests, the dump, its reading), until <see cref="QuietRounds"/> rounds in a
/// row compiled nothing; then, simulated (<see cref="Simulate"/>): operations per sample chosen so a sample holds about
/// <see cref="TargetInstructions"/> instructions, the same loop with an empty body counted, samples taken until
/// <see cref="SettledRun"/> in a row agree on the instructions per operation, and <see cref="Samples"/> samples of the body
/// kept; then simulation stops.
/// </para>
/// <para>
/// Nothing is compiled while simulated: the JIT itself runs simulated there, and one method took 2 s (the pilot's loop,
/// compiled at its first call after simulation started). The warmup calls every method the simulated stage calls, and
/// the stage is one method, compiled when it is called, before it starts simulation.
/// </para>
/// <para>
/// A body that allocates gets a gen-0 collection before each sample: each sample then starts with a fresh allocation
/// context, so the allocator's slow path lands at the same places, and no collection falls inside a sample.
/// </para>
/// </remarks>
internal static class SimulatedSampling
{
    /// <summary>
    /// Instructions per sample the operations per sample aim at: the boundaries of a sample vary by a few dozen
    /// instructions, well under 0.01 % of this.
    /// </summary>
    internal const ulong TargetInstructions = 1_000_000;

    /// <summary>The samples of the body that are kept.</summary>
    internal const int Samples = 10;

    /// <summary>Consecutive samples that must agree on instructions per operation before the kept ones start.</summary>
    internal const int SettledRun = 3;

    /// <summary>Unsimulated warmup ends after this many rounds of the sample path in a row compiled no method.</summary>
    internal const int QuietRounds = 8;

    // The most samples spent waiting for SettledRun to agree, and how close they must be.
    private const int MaxSettleSamples = 30;
    private const double SettledSpread = 1e-4;

    /// <summary>The warmup's cap, for a body that compiles code on every call.</summary>
    internal static readonly TimeSpan WarmupCap = TimeSpan.FromSeconds(60);

    /// <summary>Measures the simulated counters of <paramref name="body"/> in this process.</summary>
    /// <param name="options">The measurement's options (its warmup count).</param>
    /// <param name="counters">The simulated counters asked for, canonical names.</param>
    /// <param name="body">The body.</param>
    /// <param name="empty">The same loop with an empty body.</param>
    /// <param name="session">This process's callgrind output.</param>
    /// <param name="cancellation">Stops the measurement between samples.</param>
    /// <returns>The counts.</returns>
    /// <exception cref="InvalidDataException">Callgrind's dumps are missing or unreadable.</exception>
    /// <exception cref="IOException">A dump could not be read.</exception>
    public static SimulatedMeasurement Run<TLoop>(
        PerfOptions options,
        ImmutableArray<string> counters,
        TLoop body,
        TLoop empty,
        CallgrindSession session,
        CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        long start = Stopwatch.GetTimestamp();
        var notes = new List<string>();
        (bool allocates, string? warmupNote) = WarmUp(options, body, empty, session, cancellation);
        if (warmupNote is not null)
            notes.Add(warmupNote);

        var taken = new SimulatedEvents[Samples];
        Simulated simulated;
        try
        {
            simulated = Simulate(body, empty, allocates, session, taken, cancellation);
        }
        finally
        {
            CallgrindSession.StopInstrumentation();
        }

        if (!simulated.Settled)
            notes.Add(SimulationMessages.CountsNeverSettled(MaxSettleSamples));
        if (simulated.Collected > 0)
            notes.Add(SimulationMessages.CollectionsInSamples(simulated.Collected, Samples));
        var results = counters.Select(c => Counter(c, taken, simulated.Overhead)).ToImmutableArray();
        var simulator = new SimulatorInfo(
            Tool(session.Creator),
            System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(),
            InstructionSets.Current,
            Environment.Version.ToString(),
            GCSettings.IsServerGC,
            RuntimeCounterSource.IsBackgroundGCEnabled);
        return new SimulatedMeasurement(simulated.Operations, results, simulator, [.. notes], Stopwatch.GetElapsedTime(start));
    }

    // Unsimulated rounds of the whole sample path (the body's sample, the empty body's, both dumps read, the checks the
    // simulated stage makes on them) in batches that double up to 20 ms, until no method of the process was compiled for
    // QuietRounds rounds in a row: the worker runs without tiered compilation (SimulationCommand), so each method's first
    // call compiles its final code, and a round without a compilation means the path is all compiled. Returns whether the
    // body allocates, and a note when the cap ended the warmup (a body that compiles code on every call: a compiled Regex,
    // Expression.Compile).
    private static (bool Allocates, string? Note) WarmUp<TLoop>(
        PerfOptions options, TLoop body, TLoop empty, CallgrindSession session, CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        // Compiled here, unsimulated (it does nothing while nothing is simulated): the stage ends with it.
        CallgrindSession.StopInstrumentation();
        long start = Stopwatch.GetTimestamp();
        long batchTicks = Stopwatch.Frequency / 50;
        long cap = start + EngineClock.ToStopwatchTicks(WarmupCap);
        long done = 0, batch = 1, jit = JitInfo.GetCompiledMethodCount(currentThread: false);
        int quiet = 0;
        bool allocates = false;
        var recent = new ulong[SettledRun];
        while (true)
        {
            cancellation.ThrowIfCancellationRequested();
            long batchStart = Stopwatch.GetTimestamp();
            long allocated = GC.GetAllocatedBytesForCurrentThread();
            recent[done % SettledRun] = Sample(body, batch, allocates, session, out _).Event("Ir") ?? 0;
            allocates |= GC.GetAllocatedBytesForCurrentThread() != allocated;
            _ = Sample(empty, batch, allocates: false, session, out _).Event("Ir");
            _ = Agree(recent);
            done += batch;
            long now = Stopwatch.GetTimestamp();
            if (now - batchStart < batchTicks)
                batch *= 2;
            long compiled = JitInfo.GetCompiledMethodCount(currentThread: false);
            quiet = compiled == jit ? quiet + 1 : 0;
            jit = compiled;
            if (quiet >= QuietRounds && done >= options.WarmupCount)
                return (allocates, null);
            if (now >= cap)
                return (allocates, SimulationMessages.WarmupStillCompiling(WarmupCap));
        }
    }

    // The simulated stage, one method (see the remarks): simulation starts once this method is compiled, and every method
    // it calls was called in the warmup. The pilot: operations per sample from the fewest instructions per operation any
    // sample showed (anything else in a sample, a stub's first call, only adds), until a sample at that count holds the
    // target. The empty loop's counts at those operations (the loop, the body's call and the region's boundaries, which
    // every sample counts too; exact counts need no statistic: the smaller of two), taken before the body's samples: the
    // first sample of the body after it counted 0.4 % more than the rest (a LINQ body, in every process). Then samples until
    // SettledRun in a row agree (the branch predictor and the caches hold the body's state), and the kept ones.
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static Simulated Simulate<TLoop>(
        TLoop body, TLoop empty, bool allocates, CallgrindSession session, SimulatedEvents[] taken, CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        CallgrindSession.StartInstrumentation();
        long operations = 1;
        double perOperation = double.MaxValue;
        while (true)
        {
            cancellation.ThrowIfCancellationRequested();
            ulong instructions = Sample(body, operations, allocates, session, out _).Event("Ir") ?? 0;
            perOperation = Math.Min(perOperation, Math.Max(instructions, 1) / (double)operations);
            long wanted = (long)Math.Min(1L << 40, Math.Ceiling(TargetInstructions / perOperation));
            if (operations >= wanted)
                break;
            operations = Math.Min(wanted, operations * 64);
        }

        SimulatedEvents first = Sample(empty, operations, allocates: false, session, out _);
        SimulatedEvents second = Sample(empty, operations, allocates: false, session, out _);
        SimulatedEvents overhead = (second.Event("Ir") ?? 0) < (first.Event("Ir") ?? 0) ? second : first;

        var recent = new ulong[SettledRun];
        bool settled = false;
        for (int i = 0; i < MaxSettleSamples && !settled; i++)
        {
            cancellation.ThrowIfCancellationRequested();
            recent[i % SettledRun] = Sample(body, operations, allocates, session, out _).Event("Ir") ?? 0;
            settled = i + 1 >= SettledRun && Agree(recent);
        }

        int collected = 0;
        for (int s = 0; s < taken.Length; s++)
        {
            cancellation.ThrowIfCancellationRequested();
            taken[s] = Sample(body, operations, allocates, session, out bool collection);
            collected += collection ? 1 : 0;
        }

        return new Simulated(operations, overhead, settled, collected);
    }

    private static bool Agree(ulong[] recent)
    {
        ulong min = ulong.MaxValue, max = 0;
        foreach (ulong value in recent)
        {
            min = Math.Min(min, value);
            max = Math.Max(max, value);
        }

        return max - min <= SettledSpread * max;
    }

    // One region: the loop between the two requests, nothing else. Fully optimized at its first call. Whether a collection
    // ran during it is told, for the note.
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static SimulatedEvents Sample<TLoop>(TLoop loop, long operations, bool allocates, CallgrindSession session, out bool collection)
        where TLoop : struct, IOperationLoop
    {
        if (allocates)
            GC.Collect(0, GCCollectionMode.Forced, blocking: true);
        int collections = GC.CollectionCount(0);
        Callgrind.Begin();
        loop.Run(operations);
        Callgrind.End();
        collection = GC.CollectionCount(0) != collections;
        return session.Dump("picollo-sample");
    }

    private static SimulatedCounterSamples Counter(string name, SimulatedEvents[] samples, SimulatedEvents overhead)
    {
        if (overhead.Counter(name) is not { } empty)
            return new SimulatedCounterSamples(name, [], 0, SimulationMessages.NotSimulated(name));
        var values = new ulong[samples.Length];
        for (int i = 0; i < samples.Length; i++)
        {
            ulong value = samples[i].Counter(name) ?? 0;
            values[i] = value > empty ? value - empty : 0;
        }

        return new SimulatedCounterSamples(name, values, empty, null);
    }

    // "callgrind-3.19.0" → "callgrind 3.19.0".
    private static string Tool(string? creator) =>
        creator is { } c && c.IndexOf('-', StringComparison.Ordinal) is > 0 and var dash
            ? c[..dash] + " " + c[(dash + 1)..]
            : creator ?? "callgrind";

    /// <summary>What the simulated stage chose and saw.</summary>
    private readonly record struct Simulated(long Operations, SimulatedEvents Overhead, bool Settled, int Collected);
}
