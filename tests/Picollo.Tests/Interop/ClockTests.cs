using Shouldly;
using Xunit;

namespace Picollo.Tests.Interop;

public sealed class ClockTests
{
    [Fact]
    public void MonotonicRaw_OverAThousandReads_NeverGoesBackwards()
    {
        ulong previous = MonotonicRaw();
        for (int i = 0; i < 1_000; i++)
        {
            ulong now = MonotonicRaw();
            now.ShouldBeGreaterThanOrEqualTo(previous);
            previous = now;
        }
    }

    [Fact]
    public void MonotonicRaw_AcrossASleep_AdvancesAtLeastTheSleep()
    {
        ulong before = MonotonicRaw();
        Thread.Sleep(20);
        ulong after = MonotonicRaw();

        (after - before).ShouldBeGreaterThanOrEqualTo(19_000_000UL);
    }

    [Fact]
    public void ThreadCpuTime_WhileSpinning_AdvancesButNotWhileSleeping()
    {
        ulong start = ThreadCpuTime();
        ulong spinUntil = MonotonicRaw() + 5_000_000;
        while (MonotonicRaw() < spinUntil)
        {
        }

        ulong afterSpin = ThreadCpuTime();
        Thread.Sleep(50);
        ulong afterSleep = ThreadCpuTime();

        (afterSpin - start).ShouldBeGreaterThan(0UL);
        // A sleeping thread burns (almost) no CPU: far less than the 50 ms it slept.
        (afterSleep - afterSpin).ShouldBeLessThan(25_000_000UL);
    }

    [Fact]
    public void UnknownClock_IsReportedWithErrno()
    {
        Should.Throw<InvalidOperationException>(() => Picollo.Interop.Clock.GetNanoseconds(12_345)).Message.ShouldContain("errno");
    }

    private static ulong MonotonicRaw() => Picollo.Interop.Clock.GetNanoseconds(Picollo.Interop.Clock.CLOCK_MONOTONIC_RAW);

    private static ulong ThreadCpuTime() => Picollo.Interop.Clock.GetNanoseconds(Picollo.Interop.Clock.CLOCK_THREAD_CPUTIME_ID);
}
