using Shouldly;
using Xunit;
using Clock = Picollo.Interop.Interop.Clock;

namespace Picollo.Tests.Interop;

public sealed class ClockTests
{
    [Fact]
    public void MonotonicRaw_OverAThousandReads_NeverGoesBackwards()
    {
        ulong previous = Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW);
        for (int i = 0; i < 1_000; i++)
        {
            ulong now = Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW);
            now.ShouldBeGreaterThanOrEqualTo(previous);
            previous = now;
        }
    }

    [Fact]
    public void MonotonicRaw_AcrossASleep_AdvancesAtLeastTheSleep()
    {
        ulong before = Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW);
        Thread.Sleep(20);
        ulong after = Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW);

        (after - before).ShouldBeGreaterThanOrEqualTo(19_000_000UL);
    }

    [Fact]
    public void ThreadCpuTime_WhileSpinning_AdvancesButNotWhileSleeping()
    {
        ulong start = Clock.GetNanoseconds(Clock.CLOCK_THREAD_CPUTIME_ID);
        ulong spinUntil = Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW) + 5_000_000;
        while (Clock.GetNanoseconds(Clock.CLOCK_MONOTONIC_RAW) < spinUntil)
        {
        }

        ulong afterSpin = Clock.GetNanoseconds(Clock.CLOCK_THREAD_CPUTIME_ID);
        Thread.Sleep(50);
        ulong afterSleep = Clock.GetNanoseconds(Clock.CLOCK_THREAD_CPUTIME_ID);

        (afterSpin - start).ShouldBeGreaterThan(0UL);
        // A sleeping thread burns (almost) no CPU: far less than the 50 ms it slept.
        (afterSleep - afterSpin).ShouldBeLessThan(25_000_000UL);
    }

    [Fact]
    public void UnknownClock_IsReportedWithErrno()
    {
        Should.Throw<InvalidOperationException>(() => Clock.GetNanoseconds(12_345)).Message.ShouldContain("errno");
    }
}
