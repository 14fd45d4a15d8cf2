using Picollo.Metrics;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrHistogramConcurrencyTests
{
    private const int Threads = 64;
    private const int ValuesPerThread = 20_000;

    [Theory]
    [InlineData(HdrConcurrency.ThreadLocal, false, false)]
    [InlineData(HdrConcurrency.ThreadLocal, true, false)]
    [InlineData(HdrConcurrency.Interlocked, false, false)]
    [InlineData(HdrConcurrency.Interlocked, true, false)]
    [InlineData(HdrConcurrency.ThreadLocal, false, true)]
    [InlineData(HdrConcurrency.ThreadLocal, true, true)]
    [InlineData(HdrConcurrency.Interlocked, false, true)]
    [InlineData(HdrConcurrency.Interlocked, true, true)]
    public void ThreadChurn_WithALiveReader_LosesNoCount(HdrConcurrency concurrency, bool wideCounters, bool writers)
    {
        var builder = HdrHistogram.Factory.WithRelativeError(0.01).WithMaxTrackableValue(1_000_000).WithConcurrency(concurrency);
        var h = (wideCounters ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
        var expected = HdrHistogram.Factory.WithRelativeError(0.01).WithMaxTrackableValue(1_000_000).Create();
        for (int t = 0; t < Threads; t++)
        {
            for (int i = 0; i < ValuesPerThread; i++)
                expected.Record(ValueOf(t, i));
        }

        // A monitoring thread polls deltas every millisecond while the writers come and go.
        using var done = new CancellationTokenSource();
        var snapshot = h.GetSnapshot();
        ulong[] deltaSums = new ulong[h.BucketCount];
        int updates = 0;
        var monitor = new Thread(() =>
        {
            while (!done.IsCancellationRequested)
            {
                Thread.Sleep(1);
                snapshot.Update(deltas: true);
                AddTo(deltaSums, snapshot.BucketCounts);
                updates++;
            }
        });
        monitor.Start();

        // Eight waves of eight short-lived threads: exits overlap with new arrivals.
        for (int wave = 0; wave < Threads / 8; wave++)
        {
            var threads = Enumerable.Range(wave * 8, 8).Select(t => new Thread(() =>
            {
                if (writers)
                {
                    var writer = h.GetWriter();
                    for (int i = 0; i < ValuesPerThread; i++)
                        writer.Record(ValueOf(t, i));
                }
                else
                {
                    for (int i = 0; i < ValuesPerThread; i++)
                        h.Record(ValueOf(t, i));
                }
            })).ToArray();
            foreach (var w in threads)
                w.Start();
            foreach (var w in threads)
                w.Join();
        }

        done.Cancel();
        monitor.Join();
        snapshot.Update(deltas: true);
        AddTo(deltaSums, snapshot.BucketCounts);

        h.TotalCount.ShouldBe((ulong)(Threads * ValuesPerThread));
        h.OverflowCount.ShouldBe(0UL);
        h.Buckets.Select(b => b.Count).ShouldBe(expected.Buckets.Select(b => b.Count));
        deltaSums.ShouldBe(expected.Buckets.Select(b => b.Count).ToArray(), "the deltas add up to the totals");
        updates.ShouldBeGreaterThan(0);
    }

    [Fact]
    public void ThreadLocal_FoldsTheCountsOfExitedThreadsAndDropsTheirStorage()
    {
        var h = HdrHistogram.Factory.WithMaxTrackableValue(1_000).WithConcurrency(HdrConcurrency.ThreadLocal).Create();
        long oneArray = h.FootprintInBytes;

        var writers = Enumerable.Range(0, 4).Select(t => new Thread(() => h.Record((ulong)t, 10))).ToArray();
        foreach (var w in writers)
            w.Start();
        foreach (var w in writers)
            w.Join();

        h.TotalCount.ShouldBe(40UL);
        h.FootprintInBytes.ShouldBe(oneArray, "exited threads' shards are folded into the accumulator");

        h.Record(5);
        h.FootprintInBytes.ShouldBe(2 * oneArray, "the calling thread now has a shard of its own");
        h.TotalCount.ShouldBe(41UL);
    }

    /// <summary>Every mode, recording through <see cref="HdrHistogram.Record(ulong, ulong)"/> (false) or a writer (true).</summary>
    public static TheoryData<HdrConcurrency, bool> EveryModeBothWays => new()
    {
        { HdrConcurrency.SingleWriter, false },
        { HdrConcurrency.Interlocked, false },
        { HdrConcurrency.ThreadLocal, false },
        { HdrConcurrency.SingleWriter, true },
        { HdrConcurrency.Interlocked, true },
        { HdrConcurrency.ThreadLocal, true },
    };

    [Theory]
    [MemberData(nameof(EveryModeBothWays))]
    public void Reset_ClearsEveryThreadsCounts(HdrConcurrency concurrency, bool viaWriter)
    {
        var h = HdrHistogram.Factory.WithMaxTrackableValue(1_000).WithConcurrency(concurrency).Create();
        using var recorded = new Barrier(2);
        var writer = new Thread(() =>
        {
            // The writer is taken before the reset and used after it.
            HdrHistogramWriter? handle = viaWriter ? h.GetWriter() : null;
            Record(h, handle, 7, 3);
            recorded.SignalAndWait(TestContext.Current.CancellationToken); // recorded
            recorded.SignalAndWait(TestContext.Current.CancellationToken); // reset done
            Record(h, handle, 8, 1);
        });
        writer.Start();
        recorded.SignalAndWait(TestContext.Current.CancellationToken);
        h.Record(9);
        h.TotalCount.ShouldBe(4UL);

        h.Reset();
        h.TotalCount.ShouldBe(0UL);
        recorded.SignalAndWait(TestContext.Current.CancellationToken);
        writer.Join();

        h.TotalCount.ShouldBe(1UL);
        h.ResetCount.ShouldBe(1L);
    }

    [Theory]
    [MemberData(nameof(EveryModeBothWays))]
    public void ConcurrentResets_AreNeverSeenHalfDone(HdrConcurrency concurrency, bool viaWriter)
    {
        // Between two resets (an epoch) the writer records only into even buckets, in the next epoch
        // only into odd ones. A read is consistent when it lies inside one epoch, so it can never see
        // both parities; a read that straddles a reset (a half-cleared histogram) can.
        // ~20k buckets: a copy takes long enough for a reset to land in the middle of it.
        var h = HdrHistogram.Factory.WithRelativeError(0.001).WithMaxTrackableValue(1UL << 50).WithConcurrency(concurrency).Create();
        ulong[] starts = h.Buckets.Select(b => b.Start).ToArray();
        // At least 300 ms and a few dozen of each, so that a busy machine (a thread starved for most of the 300 ms) still
        // gives both sides their turns; 20 s bounds a machine that never schedules one of them.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        int resets = 0, reads = 0;
        string? violation = null;
        bool Done() => clock.Elapsed > TimeSpan.FromSeconds(20)
            || (clock.Elapsed > TimeSpan.FromMilliseconds(300) && Volatile.Read(ref resets) >= 30 && Volatile.Read(ref reads) >= 30);

        var writer = new Thread(() =>
        {
            HdrHistogramWriter? handle = viaWriter ? h.GetWriter() : null;
            for (int epoch = 0; !Done() && Volatile.Read(ref violation) is null; epoch++)
            {
                h.Reset();
                Interlocked.Increment(ref resets);
                // Top down: the new epoch's counts appear ahead of a reader copying bottom up.
                for (int i = starts.Length - 1 - (epoch & 1); i >= 0; i -= 2)
                    Record(h, handle, starts[i], 3);
            }
        });
        var reader = new Thread(() =>
        {
            ulong[] counts = new ulong[h.BucketCount];
            while (!Done() && violation is null)
            {
                h.CopyCounts(counts);
                Interlocked.Increment(ref reads);
                violation = FindMixedEpochs(counts);
            }
        });
        writer.Start();
        reader.Start();
        writer.Join();
        reader.Join();

        violation.ShouldBeNull();
        resets.ShouldBeGreaterThan(10);
        reads.ShouldBeGreaterThan(10);
    }

    [Fact]
    public void RecordAndWriters_InEveryMode_AllocateNothingAfterTheFirstRecordOfAThread()
    {
        HdrHistogram[] histograms =
        [
            HdrHistogram.Factory.WithConcurrency(HdrConcurrency.SingleWriter).Create(),
            HdrHistogram.Factory.WithConcurrency(HdrConcurrency.Interlocked).WithUInt32Storage().Create(),
            HdrHistogram.Factory.WithConcurrency(HdrConcurrency.Interlocked).Create(),
            HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).WithUInt32Storage().Create(),
            HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).Create(),
        ];
        foreach (var h in histograms)
            h.Record(1);

        int attempts = 0;
        long allocated = AllocationProbe.Measure(() =>
        {
            attempts++;
            foreach (var h in histograms)
            {
                var writer = h.GetWriter();
                for (ulong v = 0; v < 10_000; v++)
                {
                    h.Record(v * 7_919);
                    h.Record(v, 2);
                    writer.Record(v * 104_729);
                    writer.Record(v, 2);
                }
            }
        });

        allocated.ShouldBe(0);
        histograms.ShouldAllBe(h => h.TotalCount == 1 + (60_000UL * (ulong)attempts));
    }

    [Fact]
    public void ThreadLocalSlot_OfACollectedHistogram_IsRecycledWithoutItsCounts()
    {
        RecordIntoAnAbandonedHistogram();
        GC.Collect();
        GC.WaitForPendingFinalizers();

        // Some new histogram reuses the slot index; none inherits the abandoned counts.
        var fresh = Enumerable.Range(0, 8).Select(_ => HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).Create()).ToArray();
        foreach (var h in fresh)
            h.Record(1);

        fresh.ShouldAllBe(h => h.TotalCount == 1);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void RecordIntoAnAbandonedHistogram()
    {
        var h = HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).Create();
        h.Record(1, 100);
    }

    private static void Record(HdrHistogram h, HdrHistogramWriter? writer, ulong value, ulong count)
    {
        if (writer is { } w)
            w.Record(value, count);
        else
            h.Record(value, count);
    }

    private static string? FindMixedEpochs(ulong[] counts)
    {
        int even = -1, odd = -1;
        for (int i = 0; i < counts.Length; i++)
        {
            if (counts[i] != 0)
                _ = (i & 1) == 0 ? even = i : odd = i;
        }

        return even >= 0 && odd >= 0 ? $"buckets {even} and {odd} hold counts of two epochs" : null;
    }

    // Mostly a handful of hot, exact buckets (so non-atomic increments would collide), with a spread tail.
    private static ulong ValueOf(int thread, int i) =>
        i % 4 == 0 ? (ulong)((thread * 7_919L + i * 104_729L) % 1_000_000) : (ulong)(i % 8);

    private static void AddTo(ulong[] sums, ReadOnlySpan<ulong> deltas)
    {
        for (int i = 0; i < deltas.Length; i++)
            sums[i] += deltas[i];
    }
}
