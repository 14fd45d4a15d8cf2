using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The reference probes between samples are taken out of the readings: each sample's delta is what the body counted, the
/// probes' time and bytes in none of them (the engine's counterpart is PerfMeasureTests' allocating body, exact at P100).
/// </summary>
public sealed class SampleReadingsTests
{
    [Fact]
    public void RemoveProbeGaps_LeavesEverySampleItsOwnDelta()
    {
        // Two counters; sample s counts (10 + s, 100) and every probe (after samples 4 and 8, i.e. rows 4 and 8) adds
        // (1,000, 5,000), as a probe's time and allocations would.
        const int samples = 10;
        var readings = new SampleReadings(samples, width: 2, probes: ReferenceProbes.ProbesFor(samples));
        ulong[] total = [7, 3];
        Write(readings, 0, total);
        int probes = 0;
        for (int s = 0; s < samples; s++)
        {
            total[0] += (ulong)(10 + s);
            total[1] += 100;
            Write(readings, s + 1, total);
            if ((s + 1) % ReferenceProbes.Every == 0 && probes < readings.SpeedTicks.Length)
            {
                readings.ProbeGaps[probes * 2] = 1_000;
                readings.ProbeGaps[(probes * 2) + 1] = 5_000;
                total[0] += 1_000;
                total[1] += 5_000;
                probes++;
            }
        }

        readings.Taken = samples;
        readings.ProbesTaken = probes;
        probes.ShouldBe(2);

        readings.RemoveProbeGaps();

        for (int s = 0; s < samples; s++)
        {
            readings.Delta(s, 0).ShouldBe((ulong)(10 + s), $"sample {s}");
            readings.Delta(s, 1).ShouldBe(100UL, $"sample {s}");
        }
    }

    [Fact]
    public void RemoveProbeGaps_KeepsACountThatSteppedBackDuringAProbe()
    {
        // A multiplexed count scaled by enabled/running can read a little lower after the probe than before it: the gap
        // wraps around 2^64, and removing it must still give the next sample its own delta.
        var readings = new SampleReadings(8, width: 1, probes: 2);
        ulong[] rows = [1_000, 1_010, 1_020, 1_030, 1_040, 1_047, 1_057, 1_067, 1_077];
        for (int row = 0; row < rows.Length; row++)
            readings.Boundaries[row] = rows[row];

        // The probe after row 4 read 1,037 (3 below 1,040): the gap is -3.
        readings.ProbeGaps[0] = unchecked((ulong)-3);
        readings.Taken = 8;
        readings.ProbesTaken = 1;

        readings.RemoveProbeGaps();

        readings.Delta(3, 0).ShouldBe(10UL);
        readings.Delta(4, 0).ShouldBe(10UL, "1,047 after the probe's 1,037");
        readings.Delta(7, 0).ShouldBe(10UL);
    }

    [Fact]
    public void AllocationNanoseconds_IsNaNWithoutAllocationProbes_AndTheMedianPerAllocationWithThem()
    {
        new SampleReadings(8, width: 1, probes: 2).AllocationNanoseconds().ShouldBe(double.NaN);

        var readings = new SampleReadings(48, width: 1, probes: 12, allocationProbes: true);
        readings.AllocationNanoseconds().ShouldBe(double.NaN, "no probe taken yet");

        // Twelve probes: ten at 20 µs, a fast one at 10 µs and a slow one (a collection) at 90 µs. The (lower) median is
        // 20 µs over 1,000 allocations, whatever the outliers say.
        long tenMicroseconds = System.Diagnostics.Stopwatch.Frequency / 100_000;
        for (int i = 0; i < 12; i++)
            readings.AllocationTicks[i] = 2 * tenMicroseconds;
        readings.AllocationTicks[3] = tenMicroseconds;
        readings.AllocationTicks[7] = 9 * tenMicroseconds;
        readings.ProbesTaken = 12;

        readings.AllocationNanoseconds().ShouldBe(20.0, tolerance: 0.01);
    }

    [Fact]
    public void AllocationNanoseconds_ReadsTheProbesBesideTheFloor_WhenTheRunSwitchedBetweenTwoAllocationSpeeds()
    {
        // 80 samples and 20 probes, probe k after samples 4k..4k+3. The first 16 samples ran at the fast allocation level
        // (wall 100 ticks, probes at 6 µs per 1,000 allocations), the other 64 at the slow one (180 ticks, probes at 11 µs).
        // The floor (P10) comes from the fast fifth, so the reference must read 6 ns, not the run's median of 11.
        var readings = new SampleReadings(80, width: 1, probes: 20, allocationProbes: true);
        long microsecond = System.Diagnostics.Stopwatch.Frequency / 1_000_000;
        for (int s = 0; s < 80; s++)
            readings.Times[s] = s < 16 ? 100 : 180;
        for (int k = 0; k < 20; k++)
            readings.AllocationTicks[k] = (k < 4 ? 6 : 11) * microsecond;
        readings.Taken = 80;
        readings.ProbesTaken = 20;

        readings.AllocationNanoseconds().ShouldBe(6.0, tolerance: 0.01);

        // Every sample at one speed: the floor's fifth is any fifth, and the reference is the run's median again.
        Array.Fill(readings.Times, 150L);
        readings.AllocationNanoseconds().ShouldBe(11.0, tolerance: 0.01);
    }

    [Fact]
    public void MachineSpeedNanoseconds_IsTheFloorOfTheCoreTimings_OverAnyRangeOfProbes()
    {
        var readings = new SampleReadings(80, width: 1, probes: 20);
        readings.MachineSpeedNanoseconds().ShouldBe(double.NaN, "no probe taken yet");

        // The first ten probes at the fast level, the last ten 1.5x slower: half a run in a slow mode.
        long fast = System.Diagnostics.Stopwatch.Frequency / 20_000; // 50 µs: 1,000 ns per 1,000 steps of 50,000
        for (int i = 0; i < 20; i++)
            readings.SpeedTicks[i] = i < 10 ? fast : fast * 3 / 2;
        readings.ProbesTaken = 20;

        readings.MachineSpeedNanoseconds().ShouldBe(1_000, tolerance: 1, "the floor of the whole run is the fast level");
        readings.MachineSpeedNanoseconds(10).ShouldBe(1_500, tolerance: 1);
        readings.MachineSpeedNanoseconds(0, 10).ShouldBe(1_000, tolerance: 1);
        readings.MachineSpeedNanoseconds(10, 10).ShouldBe(double.NaN, "an empty range");
    }

    private static void Write(SampleReadings readings, int row, ulong[] values) =>
        values.CopyTo(readings.Boundaries.AsSpan(row * readings.Width));
}
