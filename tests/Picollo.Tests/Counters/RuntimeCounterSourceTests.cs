using System.Reflection.Emit;
using Picollo.Counters;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class RuntimeCounterSourceTests
{
    private const int Repetitions = 1_000;

    // A static sink makes every array escape: .NET 10 can stack-allocate a small array that does not.
    private static byte[]? s_sink;

    [Fact]
    public void Descriptors_AreTheRuntimeCountersInTheDocumentedOrder()
    {
        using var source = new RuntimeCounterSource();

        source.Descriptors.Select(d => (d.Name, d.Unit)).ShouldBe(
        [
            ("allocated-bytes", "bytes"),
            ("gen0-collections", "collections"),
            ("gen1-collections", "collections"),
            ("gen2-collections", "collections"),
            ("jit-methods", "methods"),
            ("jit-il-bytes", "bytes"),
            ("lock-contentions", "contentions"),
        ]);
        source.Descriptors.ShouldAllBe(d => d.Kind == CounterKind.Runtime && d.IsAvailable);
        source.Descriptors.Count.ShouldBe(RuntimeCounterSource.CounterCount);
    }

    [Fact]
    public void GcMode_OfThisTestProject_HasNoBackgroundGC()
    {
        // The test project sets <ConcurrentGarbageCollection>false</ConcurrentGarbageCollection>.
        RuntimeCounterSource.IsBackgroundGCEnabled.ShouldBeFalse();
        RuntimeCounterSource.AllocatedBytesCaveat.ShouldBeNull();
        RuntimeCounterSource.IsServerGC.ShouldBeFalse();
    }

    [Fact]
    public void AllocatedBytes_OfNewByte64_IsExactly88EveryTime()
    {
        using var source = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> after = stackalloc ulong[RuntimeCounterSource.CounterCount];
        var deltas = new ulong[Repetitions];
        source.ReadCumulative(before);

        for (int i = 0; i < Repetitions; i++)
        {
            // A collection by any thread inside the window adds this thread's unused allocation context to the
            // count (see AllocationProbe): such a repetition is measured again.
            int collections;
            do
            {
                collections = GC.CollectionCount(0);
                source.ReadCumulative(before);
                s_sink = new byte[64];
                source.ReadCumulative(after);
            }
            while (GC.CollectionCount(0) != collections);

            deltas[i] = after[0] - before[0];
        }

        // 64 bytes of payload + 8 method table + 8 length + 8 object header = 88 on x64.
        deltas.ShouldAllBe(delta => delta == 88);
        s_sink.ShouldNotBeNull();
    }

    [Fact]
    public void AllocatedBytes_OfABodyThatDoesNotAllocate_IsZeroEveryTime()
    {
        using var source = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> after = stackalloc ulong[RuntimeCounterSource.CounterCount];
        var deltas = new ulong[Repetitions];
        int[] numbers = [.. Enumerable.Range(0, 100)];
        long sum = 0;
        source.ReadCumulative(before);

        for (int i = 0; i < Repetitions; i++)
        {
            source.ReadCumulative(before);
            foreach (int number in numbers)
                sum += number;
            source.ReadCumulative(after);
            deltas[i] = after[0] - before[0];
        }

        deltas.ShouldAllBe(delta => delta == 0);
        sum.ShouldBe(Repetitions * 4_950L);
    }

    [Fact]
    public void ReadCumulative_AllocatesNothing()
    {
        using var source = new RuntimeCounterSource();
        ulong[] values = new ulong[RuntimeCounterSource.CounterCount];
        source.ReadCumulative(values);

        AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < Repetitions; i++)
                source.ReadCumulative(values);
        }).ShouldBe(0);
    }

    [Fact]
    public void CollectionCounters_AfterCollections_Move()
    {
        using var source = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> afterGen0 = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> afterGen2 = stackalloc ulong[RuntimeCounterSource.CounterCount];

        source.ReadCumulative(before);
        GC.Collect(0);
        source.ReadCumulative(afterGen0);
        GC.Collect(2);
        source.ReadCumulative(afterGen2);

        afterGen0[1].ShouldBeGreaterThan(before[1]);
        afterGen2[3].ShouldBeGreaterThan(afterGen0[3]);
        afterGen2[2].ShouldBeGreaterThan(afterGen0[2], "a gen-2 collection also collects gen 1");
        afterGen2[1].ShouldBeGreaterThan(afterGen0[1], "a gen-2 collection also collects gen 0");
    }

    [Fact]
    public void JitCounters_AfterCompilingAFreshMethod_Move()
    {
        using var source = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> after = stackalloc ulong[RuntimeCounterSource.CounterCount];

        var method = new DynamicMethod("Picollo_FortyTwo_" + Guid.NewGuid().ToString("N"), typeof(int), Type.EmptyTypes);
        ILGenerator il = method.GetILGenerator();
        il.Emit(OpCodes.Ldc_I4, 42);
        il.Emit(OpCodes.Ret);
        var fortyTwo = method.CreateDelegate<Func<int>>();

        source.ReadCumulative(before);
        int result = fortyTwo(); // compiled on this thread at its first call
        source.ReadCumulative(after);

        result.ShouldBe(42);
        after[4].ShouldBeGreaterThan(before[4]);
        after[5].ShouldBeGreaterThan(before[5]);
    }

    [Fact]
    public void LockContentions_WhenAThreadWaitsForAHeldMonitor_Move()
    {
        using var source = new RuntimeCounterSource();
        Span<ulong> before = stackalloc ulong[RuntimeCounterSource.CounterCount];
        Span<ulong> after = stackalloc ulong[RuntimeCounterSource.CounterCount];
        var gate = new object();
        using var held = new ManualResetEventSlim();

        source.ReadCumulative(before);
        var holder = new Thread(() =>
        {
            lock (gate)
            {
                held.Set();
                Thread.Sleep(200);
            }
        });
        holder.Start();
        held.Wait(TestContext.Current.CancellationToken);
        lock (gate)
        {
        }

        holder.Join();
        source.ReadCumulative(after);

        after[6].ShouldBeGreaterThan(before[6]);
    }
}
