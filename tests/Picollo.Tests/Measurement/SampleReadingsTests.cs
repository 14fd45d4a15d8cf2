using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The allocation probes between samples are taken out of the readings: each sample's delta is what the body counted, the
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
        var readings = new SampleReadings(samples, width: 2, probes: AllocationSpeed.ProbesFor(samples));
        ulong[] total = [7, 3];
        Write(readings, 0, total);
        int probes = 0;
        for (int s = 0; s < samples; s++)
        {
            total[0] += (ulong)(10 + s);
            total[1] += 100;
            Write(readings, s + 1, total);
            if ((s + 1) % AllocationSpeed.Every == 0 && probes < readings.ProbeTicks.Length)
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
    public void MedianAllocationNanoseconds_IsNaNWithoutProbes_AndPerAllocationWithThem()
    {
        var readings = new SampleReadings(8, width: 1, probes: 2);
        readings.MedianAllocationNanoseconds().ShouldBe(double.NaN);

        long ticksPerProbe = System.Diagnostics.Stopwatch.Frequency / 100_000; // 10 µs
        readings.ProbeTicks[0] = ticksPerProbe;
        readings.ProbeTicks[1] = ticksPerProbe * 3;
        readings.ProbesTaken = 2;

        // The lower median of two: 10 µs over 1,000 allocations.
        readings.MedianAllocationNanoseconds().ShouldBe(10.0, tolerance: 0.01);
    }

    private static void Write(SampleReadings readings, int row, ulong[] values) =>
        values.CopyTo(readings.Boundaries.AsSpan(row * readings.Width));
}
