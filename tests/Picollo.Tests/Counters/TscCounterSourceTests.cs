using Picollo.Counters;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class TscCounterSourceTests
{
    [Fact]
    public void Descriptors_AreOneAvailableTscCounterInTicks()
    {
        using var source = new TscCounterSource();

        source.Descriptors.ShouldHaveSingleItem().ShouldBe(new CounterDescriptor("tsc", "ticks", CounterKind.Tsc));
        source.Descriptors[0].IsAvailable.ShouldBeTrue();
    }

    [Fact]
    public void ReadCumulative_OverAThousandReads_IsMonotonicAndAllocatesNothing()
    {
        using var source = new TscCounterSource();
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
    public void ReadCumulative_IntoAnEmptySpan_Throws()
    {
        using var source = new TscCounterSource();
        Should.Throw<IndexOutOfRangeException>(() => source.ReadCumulative(Span<ulong>.Empty));
    }
}
