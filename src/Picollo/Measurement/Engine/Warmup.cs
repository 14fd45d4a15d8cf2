using System.Diagnostics;
using System.Reflection;
using System.Runtime;
using Picollo.Counters;
using Picollo.Measurement.Conditions;
using static Picollo.Measurement.Engine.EngineClock;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The warmup phase: runs the body (and the empty body and the boundary reads, so the whole measuring path is compiled
/// and warm) until the warmup count and time are reached and the body's code is final, or a time cap.
/// </summary>
/// <remarks>
/// <para>
/// Tiered compilation replaces the body's first (tier-0, or on-stack-replaced) code with optimized tier-1 code from a
/// background thread some time after its first calls (docs/ARCHITECTURE.md, "Measurement engine"): after a 100 ms
/// call-counting delay that restarts with any tier-0 compilation in the process, then, with TieredPGO, an instrumented
/// tier and 30 more calls. Until then a body with a loop runs 3.5-4× slower here (a 2,000-step dependency chain: OSR
/// code vs tier 1). A fresh body's warmup lasted 210-310 ms in a warmed-up process and 220-365 ms in the first
/// measurement of a process, also with both cores kept busy: the delay is a timer, not CPU work.
/// </para>
/// <para>
/// The evidence comes from <see cref="JitTierListener"/>. Once the body's method has its final code, warmup ends when
/// no method has been re-compiled for 30 ms, or 100 ms after the body's final code at the latest: the background batch
/// that compiles the body compiles its equally hot callees with it (the chain's tier-1 code came 0.1 ms after its
/// caller's), and events arrive 10-13 ms after the compilation. While the body's method is still on its way to tier 1,
/// warmup continues up to <see cref="TierUpWait"/> even when the time budget is shorter. When the events cannot tell the
/// body's tier (it was compiled before this measurement, or the events are unavailable), the older rule applies: 400 ms
/// without any compilation in the process, capped at half the time budget. On that chain, 150 ms of quiet still left
/// the first measurement 28% slower; 400 ms never did.
/// </para>
/// <para>
/// Code compiled without optimizations (MinOpts: <c>[MethodImpl(MethodImplOptions.NoOptimization)]</c>, an assembly
/// built without optimizations, a debugger, <c>DOTNET_JITMinOpts</c>) is final as well, as it never tiers up: warmup ends
/// on it the same way, with <see cref="WarmupEnd.CodeUnoptimized"/> rather than <see cref="WarmupEnd.CodeOptimized"/>.
/// </para>
/// <para>All state is process-wide and guarded by the engine's gate: one measurement runs at a time.</para>
/// </remarks>
internal static class Warmup
{
    /// <summary>
    /// How long warmup may wait for the body's tier-1 code when the time budget is shorter than twice this. Warmup
    /// beyond half the budget does not count against the pilot's and the samples' share of it.
    /// </summary>
    /// <remarks>
    /// The first measurement of a process started its warmup 60-100 ms after its start and needed up to 365 ms of it; a
    /// fresh body measured right after two baseline judgements (whose reports compile hundreds of methods) ended at tier 0
    /// in every run at a 500 ms cap, and reached tier 1 with a 2 s one. Under continuous tier-0 compilation elsewhere in the process
    /// (another thread calling a new method every 20 or 50 ms) the body never gets its tier-1 code, not even 2 s later:
    /// the wait is bounded, and only a body still at tier 0 pays it.
    /// </remarks>
    internal static readonly TimeSpan TierUpWait = TimeSpan.FromMilliseconds(1_500);

    // Warmup batches double until one lasts this long, so the end-of-warmup checks stay fine-grained.
    private static readonly long s_batchTicks = Stopwatch.Frequency / 1_000;

    private static readonly long s_jitQuietTicks = Stopwatch.Frequency * 4 / 10;

    // After the body's final code, warmup waits until no method was re-compiled for a while: its callees tier up too, and
    // with TieredPGO a hot ReadyToRun callee (int.Parse) goes through an instrumented tier first, whose final code comes a
    // call-counting delay (100 ms) later. A 30 ms pause ended warmups between the two, and an unchanged body calling
    // int.Parse measured 2.05× its baseline in both measurements of a user's xunit project. Capped: re-compilations
    // elsewhere in the process must not hold every warmup.
    private static readonly long s_settleTicks = Stopwatch.Frequency * 15 / 100;

    private static readonly long s_settleCapTicks = Stopwatch.Frequency * 6 / 10;

    private static readonly long s_eventLatencyTicks = Stopwatch.Frequency / 20;

    // The process-wide JIT count when the last warmup ended, and since when it had not changed: a measurement that finds
    // the count unchanged counts the quiet period from there instead of waiting 400 ms again.
    private static long s_lastJitCount = -1;
    private static long s_lastJitChange;

    // Body methods a warmup saw at their final tier, and that tier (optimized, or MinOpts): code never goes back, so
    // measuring one again needs no new evidence, and unoptimized code stays known as such.
    private static readonly Dictionary<nint, JitTier> s_finalBodies = [];

    // The listener of a warmup that ended without seeing the body's final code, kept through the samples that follow: the
    // body's tier-1 code often comes during them (a busy test host restarts the call-counting delay through a whole warmup),
    // and the next measurement's listener sees no compilation of a body compiled before it started. A recording in an NUnit
    // template project beside other builds ran no final code in any of its six measurements, each later warmup ending
    // "while methods were still being JIT-compiled" (issue 24); WarmupTests reproduces that sequence. Measurements run one
    // at a time (the engine's gate), so one watch is enough.
    private static (JitTierListener Listener, nint Key)? s_watching;

    /// <summary>
    /// Warms up <paramref name="body"/>. Its JIT listener is disposed before returning, unless the warmup ended without the
    /// body's final code: then it keeps watching through the samples, until <see cref="FinishWatching"/>.
    /// <paramref name="firstCall"/>, when given, is made first, under the listener, so that it sees the compilation it causes.
    /// </summary>
    internal static WarmupOutcome Run<TLoop>(
        PerfOptions options, TLoop body, TLoop empty, CounterSet set, ulong[] scratch, long start, long budgetTicks,
        CancellationToken cancellation, Action? firstCall = null)
        where TLoop : struct, IOperationLoop
    {
        FinishWatching();
        JitTierListener? listener = JitTierListener.TryStart(body.Method);
        bool watching = false;
        try
        {
            firstCall?.Invoke();
            WarmupOutcome outcome = Warm(options, body, empty, set, scratch, start, budgetTicks, listener, cancellation);
            nint key = CacheKey(body.Method);
            if (listener is not null && key != 0 && outcome.End is not (WarmupEnd.CodeOptimized or WarmupEnd.CodeUnoptimized))
            {
                s_watching = (listener, key);
                watching = true;
            }

            return outcome;
        }
        finally
        {
            if (!watching)
                listener?.Dispose();
        }
    }

    /// <summary>
    /// Ends the watch a warmup left running (the engines call it after their samples): a body the listener saw reach its
    /// final tier is known as final to the next measurement's warmup, as if a warmup had seen it.
    /// </summary>
    internal static void FinishWatching()
    {
        if (s_watching is not (JitTierListener listener, nint key))
            return;
        s_watching = null;
        JitTierSnapshot seen = listener.Snapshot();
        listener.Dispose();
        if (seen.IsBodyFinal && seen.BodyTier is { } tier)
            s_finalBodies[key] = tier;
    }

    /// <summary>Whether a warmup or a watch saw <paramref name="method"/>'s final code (for tests).</summary>
    internal static bool IsKnownFinal(MethodInfo method) => CacheKey(method) is var key && key != 0 && s_finalBodies.ContainsKey(key);

    // Longer than 60 lines: one loop whose every pass reads the batch, the JIT watches and the caps, and whose evidence is
    // this thread's JIT count. A helper called for the first time inside the loop is compiled on this thread and reads as
    // the body's code changing (the substitute snapshot below exists for that reason), so the loop stays one piece; the
    // decision itself is Decide.
    private static WarmupOutcome Warm<TLoop>(
        PerfOptions options, TLoop body, TLoop empty, CounterSet set, ulong[] scratch, long start, long budgetTicks,
        JitTierListener? listener, CancellationToken cancellation)
        where TLoop : struct, IOperationLoop
    {
        long warmupStart = Stopwatch.GetTimestamp();
        long minEnd = start + ToStopwatchTicks(options.WarmupTime);
        var caps = new Caps(
            start,
            QuietCap: Math.Max(minEnd, start + (budgetTicks / 2)),
            TierUpCap: Math.Max(minEnd, start + Math.Max(budgetTicks / 2, ToStopwatchTicks(TierUpWait))));

        MethodInfo method = body.Method;
        nint cacheKey = CacheKey(method);
        JitTier? knownFinalTier = cacheKey != 0 && s_finalBodies.TryGetValue(cacheKey, out JitTier known) ? known : null;

        long done = 0, batch = 1;
        // Read through JitCounts.Now, as sampling reads them: its first call compiles what it calls (the constructor, when
        // Picollo itself is built without optimizations and nothing is inlined) here rather than during the samples.
        JitCounts counts = JitCounts.Now();

        // Decide's path for a final body, run once on a made-up snapshot before the counts are taken: its first run compiles
        // the snapshot's getters on this thread, which inside the loop read as the body's code changing, and a body known to
        // be final from an earlier measurement's samples was refused for it (issue 24).
        _ = Decide(new JitTierSnapshot(JitTier.OptimizedTier1, warmupStart, 0), warmupStart, warmupStart, caps);
        counts = JitCounts.Now();
        var processJit = new JitCountWatch(counts.Process, warmupStart);
        if (processJit.Count == s_lastJitCount)
            processJit.Since = s_lastJitChange;
        var threadJit = new JitCountWatch(counts.Thread, warmupStart);
        while (true)
        {
            long batchStart = Stopwatch.GetTimestamp();
            set.ReadCumulative(scratch);
            body.Run(batch);
            set.ReadCumulative(scratch);
            empty.Run(batch);
            done += batch;
            long now = Stopwatch.GetTimestamp();
            if (now - batchStart < s_batchTicks)
                batch *= 2;
            cancellation.ThrowIfCancellationRequested();

            counts = JitCounts.Now();
            processJit.Update(counts.Process, now);
            threadJit.Update(counts.Thread, now);
            if (done < options.WarmupCount || now < minEnd)
                continue;

            // A body seen at its final tier before needs no new evidence, unless this warmup compiled new code on this
            // thread (the same method with state that reaches other callees): that code has its own way to tier 1. A body
            // known to run MinOpts code is told as such either way: its code never changes, its run is not judged, and
            // a compilation on this thread (an OSR of a loop elsewhere) must not turn the warmup's answer into 'JIT quiet'.
            //
            // The substitute snapshot is built on every iteration, used or not: built only on this path, its code was
            // JIT-compiled on this thread the first time a process measured a known body again, and that compilation
            // itself made the warmup refuse the known tier ("JIT quiet" instead of "code optimized").
            JitTierSnapshot tiers = listener?.Snapshot() ?? default;
            JitTierSnapshot assumed = tiers with { BodyTier = knownFinalTier ?? tiers.BodyTier, BodyTierTicks = warmupStart };
            if (knownFinalTier is { } finalTier && !tiers.IsBodyFinal
                && (threadJit.Since == warmupStart || finalTier == JitTier.MinOptJitted))
            {
                tiers = assumed;
            }

            // The body's first compilation happens on this thread; its event arrives 10-30 ms later. Without this wait a
            // fresh body whose first call outlasted the minimum warmup was judged by the fallback rule, before its event.
            // Bounded by the tier-up cap: a body that compiles something on every call (Expression.Compile, a compiled
            // Regex) keeps this thread's count moving forever, and an unbounded wait hung the process's measurement gate.
            if (listener is not null && tiers.BodyTier is null && now - threadJit.Since < s_eventLatencyTicks && now < caps.TierUpCap)
                continue;
            if (Decide(tiers, now, processJit.Since, caps) is not { } ended)
                continue;

            s_lastJitCount = processJit.Count;
            s_lastJitChange = processJit.Since;
            if (ended.End is (WarmupEnd.CodeOptimized or WarmupEnd.CodeUnoptimized) && cacheKey != 0)
                s_finalBodies[cacheKey] = tiers.BodyTier!.Value;
            TimeSpan pastQuietCap = Stopwatch.GetElapsedTime(caps.QuietCap, Math.Max(now, caps.QuietCap));
            return new WarmupOutcome(done, Stopwatch.GetElapsedTime(warmupStart), ended.End, ended.Note, pastQuietCap);
        }
    }

    private static (WarmupEnd End, string? Note)? Decide(JitTierSnapshot tiers, long now, long jitQuietSince, Caps caps)
    {
        if (tiers.IsBodyFinal)
        {
            // Settled when nothing was re-compiled, and nothing compiled at all in the process, for the settle time: a callee
            // whose tier-1 promotion is pending shows no event until its call-counting delay (100 ms) ends, and an unchanged
            // body whose loop-carrying callee was still at its first tier measured 1.75× its baseline in both measurements.
            bool quiet = now - tiers.LastRecompilationTicks >= s_settleTicks && now - jitQuietSince >= s_settleTicks;
            bool settled = quiet || now - tiers.BodyTierTicks >= s_settleCapTicks;
            if (!settled)
                return null;
            return (tiers.IsBodyUnoptimized ? WarmupEnd.CodeUnoptimized : WarmupEnd.CodeOptimized, null);
        }

        if (tiers.BodyTier is { } tier)
        {
            if (now < caps.TierUpCap)
                return null;
            return (WarmupEnd.TimeCap, MeasurementMessages.WarmupStoppedBeforeTier1(ToMilliseconds(now - caps.Start), Describe(tier)));
        }

        if (now - jitQuietSince >= s_jitQuietTicks)
            return (WarmupEnd.JitQuiet, null);
        if (now < caps.QuietCap)
            return null;
        return (WarmupEnd.TimeCap, MeasurementMessages.WarmupStoppedWhileCompiling(ToMilliseconds(caps.QuietCap - caps.Start)));
    }

    private static string Describe(JitTier tier) => tier switch
    {
        JitTier.QuickJitted => "tier-0",
        JitTier.OptimizedTier1Osr => "on-stack-replacement",
        JitTier.InstrumentedTier or JitTier.InstrumentedTierOptimized => "instrumented (TieredPGO)",
        _ => tier.ToString(),
    };

    // The method's handle; 0 (not cached) for a DynamicMethod, which has none, and for a collectible assembly, whose
    // handles can be reused by other methods once it is unloaded.
    private static nint CacheKey(MethodInfo method)
    {
        if (method.Module.Assembly.IsCollectible)
            return 0;
        try
        {
            return method.MethodHandle.Value;
        }
        catch (Exception e) when (e is InvalidOperationException or NotSupportedException)
        {
            return 0;
        }
    }

    /// <summary>When the measurement started and the two warmup caps, as <see cref="Stopwatch"/> timestamps.</summary>
    private readonly record struct Caps(long Start, long QuietCap, long TierUpCap);

    /// <summary>A JIT count and the <see cref="Stopwatch"/> timestamp since which it has not changed.</summary>
    private struct JitCountWatch(long count, long since)
    {
        public long Count = count;
        public long Since = since;

        public void Update(long count, long now)
        {
            if (count == Count)
                return;
            Count = count;
            Since = now;
        }
    }
}
