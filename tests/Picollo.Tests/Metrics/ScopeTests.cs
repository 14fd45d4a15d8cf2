using System.Diagnostics;
using Picollo.Metrics;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class ScopeTests
{
    private const int SleepMilliseconds = 20;

    [Fact]
    public void Scopes_RecordTheElapsedTimeInTheirUnit()
    {
        var ticks = HdrHistogram.Factory.Create();
        var nanos = HdrHistogram.Factory.Create();
        var micros = HdrHistogram.Factory.Create();
        var millis = HdrHistogram.Factory.Create();

        using (ticks.GetTickScope())
            Thread.Sleep(SleepMilliseconds);
        using (nanos.GetNanoScope())
            Thread.Sleep(SleepMilliseconds);
        using (micros.GetMicroScope())
            Thread.Sleep(SleepMilliseconds);
        using (millis.GetMilliScope())
            Thread.Sleep(SleepMilliseconds);

        // Lower bounds only: a sleep can overrun on a loaded machine, never underrun.
        AssertOneValueAtLeast(ticks, (ulong)(Stopwatch.Frequency * SleepMilliseconds / 1000));
        AssertOneValueAtLeast(nanos, SleepMilliseconds * 1_000_000UL);
        AssertOneValueAtLeast(micros, SleepMilliseconds * 1_000UL);
        AssertOneValueAtLeast(millis, SleepMilliseconds);
        millis.GetPercentileValue(100).ShouldBeLessThan(60_000UL);
    }

    [Fact]
    public void DefaultScope_RecordsNothingAndDoesNotThrow()
    {
        using (default(HdrTimeScope))
        {
        }
    }

    [Fact]
    public void NullHistogram_IsRejectedWhenTheScopeIsCreated()
    {
        Should.Throw<ArgumentNullException>(() => HdrHistogramScopes.GetNanoScope(null!));
    }

    [Fact]
    public void TicksToNanos_IsExactAndNeverOverflows()
    {
        long second = Stopwatch.Frequency;
        NanoScope.TicksToNanos(second).ShouldBe(NanoScope.OneSecondValue);
        NanoScope.TicksToNanos(second * 3_600).ShouldBe(3_600 * NanoScope.OneSecondValue);
        NanoScope.TicksToNanos(0).ShouldBe(0UL);
        NanoScope.TicksToNanos(-5).ShouldBe(0UL);

        // A day of ticks times 1e9 overflows 64 bits; the conversion must not.
        NanoScope.TicksToNanos(second * 86_400).ShouldBe(86_400 * NanoScope.OneSecondValue);
    }

    [Theory]
    [InlineData(1_000UL)]
    [InlineData(1_000_000UL)]
    [InlineData(1_000_000_000UL)]
    [InlineData(3_000_000_000UL)]
    public void StopwatchTicks_ConvertToAnyUnitWithTheExactIntegerRatio(ulong unitsPerSecond)
    {
        long ticks = Stopwatch.Frequency * 7 + 12_345;
        ulong expected = (ulong)((System.Numerics.BigInteger)ticks * unitsPerSecond / Stopwatch.Frequency);

        StopwatchTicks.ToUnits(ticks, unitsPerSecond).ShouldBe(expected);
        StopwatchTicks.ToUnits(long.MaxValue, 1_000).ShouldBe((ulong)((System.Numerics.BigInteger)long.MaxValue * 1_000 / Stopwatch.Frequency));
    }

    [Fact]
    public void ElapsedNanos_ConvertsTheStopwatchTicksWithoutTimeSpanRounding()
    {
        var stopwatch = Stopwatch.StartNew();
        Thread.Sleep(1);
        stopwatch.Stop();

        stopwatch.ElapsedNanos.ShouldBe(NanoScope.TicksToNanos(stopwatch.ElapsedTicks));
        stopwatch.ElapsedNanos.ShouldBeGreaterThanOrEqualTo(1_000_000UL);
    }

    private static void AssertOneValueAtLeast(HdrHistogram histogram, ulong atLeast)
    {
        histogram.TotalCount.ShouldBe(1UL);
        histogram.GetPercentileValue(100, EquivalentValueSelection.Upper).ShouldBeGreaterThanOrEqualTo(atLeast);
    }
}
