using System.Diagnostics;
using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class HdrHistogramWriterTests
{
    public static TheoryData<HdrConcurrency, bool> EveryMode => new()
    {
        { HdrConcurrency.SingleWriter, false },
        { HdrConcurrency.SingleWriter, true },
        { HdrConcurrency.Interlocked, false },
        { HdrConcurrency.Interlocked, true },
        { HdrConcurrency.ThreadLocal, false },
        { HdrConcurrency.ThreadLocal, true },
    };

    [Theory]
    [MemberData(nameof(EveryMode))]
    public void Writer_FillsTheSameBucketsAsRecord(HdrConcurrency concurrency, bool wideCounters)
    {
        var viaRecord = Create(concurrency, wideCounters);
        var viaWriter = Create(concurrency, wideCounters);
        var writer = viaWriter.GetWriter();

        // Below the min, inside (both ends included) and above the max trackable value, single and counted.
        ulong[] values = [0, 5_000, 10_000, 12_345, 20_000, 30_000, 40_000, 1UL << 40, ulong.MaxValue];
        foreach (ulong value in values)
        {
            viaRecord.Record(value);
            viaRecord.Record(value, 3);
            writer.Record(value);
            writer.Record(value, 3);
        }

        viaWriter.Buckets.Select(b => b.Count).ShouldBe(viaRecord.Buckets.Select(b => b.Count));
        viaWriter.TotalCount.ShouldBe(16UL);
        viaWriter.OverflowCount.ShouldBe(viaRecord.OverflowCount);
        viaWriter.OverflowCount.ShouldBe(20UL);
    }

    [Theory]
    [InlineData(HdrConcurrency.SingleWriter)]
    [InlineData(HdrConcurrency.Interlocked)]
    [InlineData(HdrConcurrency.ThreadLocal)]
    public void Writer_And_Record_OnOneThread_AddUpInTheSameCounters(HdrConcurrency concurrency)
    {
        var h = Create(concurrency, wideCounters: true);
        h.Record(12_345);
        h.GetWriter().Record(12_345, 2);
        h.Record(12_345);

        h.TotalCount.ShouldBe(4UL);
        h.Buckets.Single(b => b.Count != 0).Count.ShouldBe(4UL);
        h.FootprintInBytes.ShouldBe(
            Create(concurrency, wideCounters: true).FootprintInBytes * (concurrency == HdrConcurrency.ThreadLocal ? 2 : 1),
            "in the thread-local mode the writer and Record share the thread's one shard");
    }

    [Theory]
    [InlineData(HdrConcurrency.SingleWriter)]
    [InlineData(HdrConcurrency.Interlocked)]
    [InlineData(HdrConcurrency.ThreadLocal)]
    public void WriterWithCountAbove32Bits_On32BitStorage_ThrowsWithTheRemedy(HdrConcurrency concurrency)
    {
        var writer = Create(concurrency, wideCounters: false).GetWriter();

        var ex = Should.Throw<ArgumentOutOfRangeException>(() => writer.Record(12_345, (ulong)uint.MaxValue + 1));

        ex.ParamName.ShouldBe("count");
        ex.Message.ShouldContain("WithUInt64Storage()");
    }

    [Fact]
    public void WriterWithCountAbove32Bits_On64BitStorage_AddsIt()
    {
        var h = Create(HdrConcurrency.ThreadLocal, wideCounters: true);
        h.GetWriter().Record(12_345, 1UL << 40);

        h.TotalCount.ShouldBe(1UL << 40);
    }

    [Fact]
    public void ThreadLocalWriter_KeepsWritingTheThreadsCountersAcrossResets()
    {
        var h = Create(HdrConcurrency.ThreadLocal, wideCounters: true);
        var writer = h.GetWriter();
        writer.Record(12_345, 5);

        h.Reset();
        h.TotalCount.ShouldBe(0UL);
        writer.Record(12_345);

        h.TotalCount.ShouldBe(1UL, "a reset clears the thread's counters in place, so the writer's storage stays the histogram's");
    }

    [Fact]
    public void ThreadLocalWriters_OfExitedThreads_LeaveTheirCountsBehind()
    {
        var h = Create(HdrConcurrency.ThreadLocal, wideCounters: false);
        long oneArray = h.FootprintInBytes;
        var writers = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            var writer = h.GetWriter();
            for (int i = 0; i < 1_000; i++)
                writer.Record((ulong)(10_000 + (t * 5_000)));
        })).ToArray();
        foreach (var w in writers)
            w.Start();
        foreach (var w in writers)
            w.Join();

        h.TotalCount.ShouldBe(4_000UL);
        h.Buckets.Where(b => b.Count != 0).Select(b => b.Count).ShouldAllBe(c => c == 1_000UL);
        h.FootprintInBytes.ShouldBe(oneArray, "the writers' shards were folded into the accumulator when their threads exited");
    }

    [Fact]
    public void DefaultWriter_ThrowsNullReference()
    {
        HdrHistogramWriter writer = default;

        Should.Throw<NullReferenceException>(() => writer.Record(1));
    }

    [Fact]
    public void Writer_OnAnotherThread_FailsTheDebugAssertion()
    {
#if DEBUG
        var writer = Create(HdrConcurrency.ThreadLocal, wideCounters: true).GetWriter();
        string? failure = null;

        // The default listener ends the process on a failed Debug.Assert, and the test run with it.
        TraceListener[] previous = [.. Trace.Listeners.Cast<TraceListener>()];
        Trace.Listeners.Clear();
        Trace.Listeners.Add(new ThrowingListener());
        try
        {
            var other = new Thread(() =>
            {
                try
                {
                    writer.Record(12_345);
                }
                catch (InvalidOperationException e)
                {
                    failure = e.Message;
                }
            });
            other.Start();
            other.Join();
        }
        finally
        {
            Trace.Listeners.Clear();
            Trace.Listeners.AddRange(previous);
        }

        failure.ShouldNotBeNull();
        failure.ShouldContain("call GetWriter() on each recording thread");
#else
        Assert.Skip("The thread binding is asserted in Debug builds of Picollo only; this is a Release build.");
#endif
    }

    private static HdrHistogram Create(HdrConcurrency concurrency, bool wideCounters)
    {
        var builder = HdrHistogram.Factory.WithRelativeError(0.01)
            .WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).WithConcurrency(concurrency);
        return (wideCounters ? builder.WithUInt64Storage() : builder.WithUInt32Storage()).Create();
    }

#if DEBUG
    private sealed class ThrowingListener : TraceListener
    {
        public override void Fail(string? message, string? detailMessage) => throw new InvalidOperationException(message);

        public override void Write(string? message)
        {
        }

        public override void WriteLine(string? message)
        {
        }
    }
#endif
}
