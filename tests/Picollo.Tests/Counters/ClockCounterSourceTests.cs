using System.Diagnostics;
using Picollo.Counters;
using Picollo.Measurement.Engine;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class ClockCounterSourceTests
{
    [Fact]
    public void Descriptors_AreOneAvailableClockCounterInNanoseconds()
    {
        using var source = new ClockCounterSource();

        source.Descriptors.ShouldHaveSingleItem().ShouldBe(new CounterDescriptor("clock", "ns", CounterKind.Clock));
        source.Descriptors[0].IsAvailable.ShouldBeTrue();
    }

    [Fact]
    public void ReadCumulative_OverAThousandReads_IsMonotonicAndAllocatesNothing()
    {
        using var source = new ClockCounterSource();
        ulong[] value = new ulong[1];
        source.ReadCumulative(value);
        ulong previous = value[0];

        bool monotonic = true;
        long allocated = AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 1_000; i++)
            {
                source.ReadCumulative(value);
                monotonic &= value[0] >= previous;
                previous = value[0];
            }
        });

        monotonic.ShouldBeTrue();
        allocated.ShouldBe(0);
        previous.ShouldBeGreaterThan(0UL);
    }

    [Fact]
    public void ReadCumulative_AcrossASleep_CountsAtLeastTheSleepInNanoseconds()
    {
        using var source = new ClockCounterSource();
        ulong[] before = new ulong[1], after = new ulong[1];

        source.ReadCumulative(before);
        Thread.Sleep(50);
        source.ReadCumulative(after);

        // A sleep lasts at least what it asks for; the upper bound only catches a wrong unit (ticks, microseconds).
        (after[0] - before[0]).ShouldBeInRange(50_000_000UL, 5_000_000_000UL);
    }

    [Fact]
    public void ToNanoseconds_OneSecondOfTicks_IsOneBillion_AndNeverNegative()
    {
        PortableClock.Frequency.ShouldBe(Stopwatch.Frequency);
        PortableClock.ToNanoseconds(Stopwatch.Frequency).ShouldBe(1_000_000_000UL);
        PortableClock.ToNanoseconds(Stopwatch.Frequency * 3 / 2).ShouldBe(1_500_000_000UL);
        PortableClock.ToNanoseconds(-5).ShouldBe(0UL);

        // A year of ticks converts without overflowing.
        PortableClock.ToNanoseconds(Stopwatch.Frequency * 31_536_000).ShouldBe(31_536_000_000_000_000UL);
    }

    [Fact]
    public void Resolution_IsAPositiveStepBelowAMillisecond()
    {
        // One step: a tick (100 ns at 10 MHz) or a read (tens of ns on this VM); far below a millisecond on any OS .NET runs on.
        PortableClock.ResolutionNanoseconds.ShouldBeInRange(1e9 / Stopwatch.Frequency, 1e6);
    }

    [Fact]
    public void NamedInARun_TheClockCountsBesideTsc()
    {
        // Asked for by name it counts where tsc does too: the platform decides only what a run that names no counters measures.
        using CounterPlan plan = CounterPlan.Open(["Clock", "tsc"]);

        plan.Descriptors.Select(static d => d.Name).ShouldBe(["clock", "tsc"]);
        plan.Descriptors.ShouldAllBe(static d => d.IsAvailable);
        plan.Descriptors[0].Kind.ShouldBe(CounterKind.Clock);
        CounterPlan.CanonicalName("CLOCK").ShouldBe("clock");
    }

    [Fact]
    public void ReadCumulative_IntoAnEmptySpan_Throws()
    {
        using var source = new ClockCounterSource();
        Should.Throw<IndexOutOfRangeException>(() => source.ReadCumulative(Span<ulong>.Empty));
    }
}
