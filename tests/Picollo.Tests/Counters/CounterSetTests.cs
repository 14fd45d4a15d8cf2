using Picollo.Counters;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class CounterSetTests
{
    [Fact]
    public void Descriptors_AreTheSourcesDescriptorsInSourceOrder()
    {
        using var set = new CounterSet(new FakeSource(100, "a", "b"), new FakeSource(200, "c"), new FakeSource(300, "d", "e", "f"));

        set.Descriptors.Select(d => d.Name).ShouldBe(["a", "b", "c", "d", "e", "f"]);
        set.Count.ShouldBe(6);
        set.Sources.Count.ShouldBe(3);
        set.IndexOf("C").ShouldBe(2);
        set.IndexOf("missing").ShouldBe(-1);
    }

    [Fact]
    public void ReadCumulative_GivesEachSourceItsOwnSliceInOrder()
    {
        var log = new List<string>();
        using var set = new CounterSet(new FakeSource(100, log, "a", "b"), new FakeSource(200, log, "c"), new FakeSource(300, log, "d", "e"));
        var values = new ulong[6];
        values[5] = 999;

        set.ReadCumulative(values);

        values.ShouldBe([100UL, 101, 200, 300, 301, 999]);
        log.ShouldBe(["a", "c", "d"]);
    }

    [Fact]
    public void ReadCumulative_IntoAShortSpan_Throws()
    {
        using var set = new CounterSet(new FakeSource(1, "a", "b"));

        Should.Throw<ArgumentException>(() => set.ReadCumulative(new ulong[1])).ParamName.ShouldBe("destination");
    }

    [Fact]
    public void ReadCumulative_OfTscAndRuntimeCounters_AllocatesNothing()
    {
        using var set = new CounterSet(new TscCounterSource(), new RuntimeCounterSource());
        ulong[] values = new ulong[set.Count];
        set.ReadCumulative(values);

        AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 1_000; i++)
                set.ReadCumulative(values);
        }).ShouldBe(0);
        set.IndexOf(CounterNames.Tsc).ShouldBe(0);
        set.IndexOf(CounterNames.AllocatedBytes).ShouldBe(1);
        values[0].ShouldBeGreaterThan(0UL);
    }

    [Fact]
    public void Constructor_WithTheSameCounterTwice_Throws()
    {
        Should.Throw<ArgumentException>(() => new CounterSet(new FakeSource(1, "tsc"), new FakeSource(2, "TSC")))
            .Message.ShouldContain("'TSC' appears more than once");
    }

    [Fact]
    public void Constructor_WithANullSource_Throws()
    {
        Should.Throw<ArgumentNullException>(() => new CounterSet(new FakeSource(1, "a"), null!));
    }

    [Fact]
    public void Dispose_DisposesEverySourceEvenWhenOneThrows()
    {
        var first = new FakeSource(1, "a") { ThrowOnDispose = true };
        var second = new FakeSource(2, "b");
        var set = new CounterSet(first, second);

        Should.Throw<AggregateException>(set.Dispose).InnerExceptions.ShouldHaveSingleItem().ShouldBeOfType<InvalidOperationException>();

        first.Disposed.ShouldBeTrue();
        second.Disposed.ShouldBeTrue();
        Should.NotThrow(set.Dispose);
        Should.Throw<ObjectDisposedException>(() => set.ReadCumulative(new ulong[2]));
    }

    private sealed class FakeSource(ulong firstValue, List<string>? log, params string[] names) : ICounterSource
    {
        public FakeSource(ulong firstValue, params string[] names)
            : this(firstValue, null, names)
        {
        }

        public IReadOnlyList<CounterDescriptor> Descriptors { get; } = [.. names.Select(n => new CounterDescriptor(n, "events", CounterKind.Software))];

        public bool ThrowOnDispose { get; init; }

        public bool Disposed { get; private set; }

        public void ReadCumulative(Span<ulong> destination)
        {
            // A source that writes past its own counters would be caught by the slice bounds.
            destination.Length.ShouldBe(names.Length);
            for (int i = 0; i < names.Length; i++)
                destination[i] = firstValue + (ulong)i;
            log?.Add(names[0]);
        }

        public void Dispose()
        {
            Disposed = true;
            if (ThrowOnDispose)
                throw new InvalidOperationException("dispose failed");
        }
    }
}
