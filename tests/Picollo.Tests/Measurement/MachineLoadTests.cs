using System.Diagnostics;
using Picollo.Measurement.Conditions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>The busy-machine line: other processes' CPU time during the test, not the lagging load average.</summary>
public sealed class MachineLoadTests
{
    [Fact]
    public void OtherProcessesOnEveryOtherCore_AreBusy_WhileThisProcessAloneIsNot()
    {
        long start = Stopwatch.GetTimestamp();
        long end = start + Stopwatch.Frequency; // one second

        // 100 ticks of all CPUs' busy time in one second: this process used 1 s of it itself (its measuring thread).
        var before = new MachineLoad(2.5, BusyTicks: 1_000, StealTicks: 10, TotalTicks: 10_000, OwnCpu: TimeSpan.FromSeconds(3), start);
        var alone = new MachineLoad(2.5, BusyTicks: 1_100, StealTicks: 10, TotalTicks: 10_200, OwnCpu: TimeSpan.FromSeconds(4), end);
        // Every other core busy for the whole second.
        int others = Math.Max(1, Environment.ProcessorCount - 1);
        var beside = alone with { BusyTicks = 1_100 + (100 * others) };

        (string? line, bool busy) = MachineLoad.Describe(before, alone);
        busy.ShouldBeFalse("a high load average from the build before is not the test's neighbour");
        line.ShouldBe($"Machine: other processes used 0.00 of {Environment.ProcessorCount} cores during the test; 0.0% of CPU time stolen by the hypervisor; load average 2.50 before, 2.50 after.");

        (line, busy) = MachineLoad.Describe(before, beside);
        busy.ShouldBeTrue();
        line.ShouldStartWith($"Machine: other processes used {others}.00 of {Environment.ProcessorCount} cores during the test;");
        line.ShouldEndWith("The machine was busy: time counters may be noisier than usual, and the verdicts account for it only in part.");
    }

    [Fact]
    public void StolenTime_IsBusy()
    {
        long start = Stopwatch.GetTimestamp();
        var before = new MachineLoad(null, 1_000, 10, 10_000, TimeSpan.Zero, start);
        var after = new MachineLoad(null, 1_000, 20, 10_200, TimeSpan.Zero, start + Stopwatch.Frequency);

        MachineLoad.Describe(before, after).Busy.ShouldBeTrue("10 of 200 ticks stolen: 5 %");
    }

    [Fact]
    public void Read_OnLinux_HasTheCounts()
    {
        MachineLoad now = MachineLoad.Read();

        now.TotalTicks.ShouldNotBeNull().ShouldBeGreaterThan(0);
        now.BusyTicks.ShouldNotBeNull().ShouldBeLessThanOrEqualTo(now.TotalTicks!.Value);
        now.LoadAverage.ShouldNotBeNull().ShouldBeGreaterThanOrEqualTo(0);
    }
}
