using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Metrics;
using Picollo.PerfEvents;

namespace Picollo.Samples;

/// <summary>The counters: what this machine can count and why not, a perf_event session, the TSC, the runtime counters.</summary>
public static class CounterExamples
{
    /// <summary>The availability probe's report and the PMU's counter slots.</summary>
    public static void Availability()
    {
        Console.WriteLine(PerfEventAvailability.Current);
        Console.WriteLine(PerfEventCounterSession.TryGetNumberOfCounters(out uint fixedCounters, out uint programmable)
            ? $"CPU PMU: fixedCounters={fixedCounters}, programmableCounters={programmable}"
            : "CPU PMU: unavailable");
    }

    /// <summary>
    /// The article's known workload: a chain of 256 dependent adds run 1,000 times per sample (≈ 256k cycles),
    /// measured by one perf_event group. Counters the machine cannot open are listed with the reason;
    /// the others are summarized.
    /// </summary>
    public static void PerfSession()
    {
        using var session = PerfEventCounterSession.Factory
            .WithKernel(false)
            .WithFixedCounters()
            .WithHardwareCounter(PerfHardwareCounterId.BranchMisses)
            .WithCacheCounter(PerfCacheCounterId.L1DReadMiss)
            .WithCounter("task-clock")
            .WithCounter("page-faults")
            .Create();

        foreach (CounterDescriptor unavailable in session.UnavailableCounters)
            Console.WriteLine($"unavailable {unavailable.Name}: {unavailable.UnavailableReason}");

        for (int i = 0; i < 2_000; i++)
        {
            session.Read(forceSyscallRead: true);
            AddChain256(1_000);
            session.Read(forceSyscallRead: true);
            session.Record(deltas: true);
            if (i == 200)
                session.Reset(); // the first samples warmed up the JIT and the caches
        }

        foreach (PerfEventCounter counter in session.Counters)
            counter.Histogram.GetSummary().PrettyPrint(counter.Name);
    }

    /// <summary>The TSC's frequency and one timed region in ticks and nanoseconds.</summary>
    public static void TscClock()
    {
        if (!Tsc.IsSupported)
        {
            Console.WriteLine($"TSC: {Tsc.UnsupportedReason}");
            return;
        }

        Console.WriteLine($"TSC: {Tsc.Frequency}, invariant: {Tsc.IsInvariant}");
        var h = HdrHistogram.Factory.WithRelativeError(0.01).Create();
        for (int i = 0; i < 10_000; i++)
        {
            ulong start = Tsc.ReadStart();
            AddChain256(10);
            h.Record(Tsc.ReadEnd() - start);
        }

        var summary = h.GetSummary();
        summary.PrettyPrint("AddChain256(10) in TSC ticks");
        Console.WriteLine($"P50 = {Tsc.Frequency.TicksToNanoseconds(summary.P50.Value):N0} ns");
    }

    /// <summary>Allocated bytes per operation are exact: one byte[64] is 88 bytes (with background GC off).</summary>
    public static void RuntimeCounters()
    {
        using var runtime = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> after = stackalloc ulong[RuntimeCounterSource.CounterCount];
        runtime.ReadCumulative(before);
        for (int i = 0; i < 1_000; i++)
            Allocate64();
        runtime.ReadCumulative(after);

        for (int i = 0; i < runtime.Descriptors.Count; i++)
            Console.WriteLine($"{runtime.Descriptors[i].Name,-18} {after[i] - before[i],12:N0} {runtime.Descriptors[i].Unit}");
        Console.WriteLine($"allocated bytes per new byte[64]: {(after[0] - before[0]) / 1_000.0:N1}");
        if (RuntimeCounterSource.AllocatedBytesCaveat is { } caveat)
            Console.WriteLine(caveat);
    }

    // 256 dependent additions per repeat (half of them of a shifted copy): each needs the previous result,
    // so out-of-order execution cannot overlap them and the time tracks the chain length.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong AddChain256(int repeats)
    {
        ulong x = (ulong)repeats;
        for (int r = 0; r < repeats; r++)
        {
            for (int i = 0; i < 32; i++)
            {
                x += (ulong)i; x += x >> 1; x += 3; x += x >> 2;
                x += 5; x += x >> 3; x += 7; x += x >> 4;
            }
        }

        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static byte[] Allocate64() => new byte[64];
}
