using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>The engine end to end on the real machine, with small sample counts and budgets to stay fast.</summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class PerfMeasureTests
{
    private static readonly PerfOptions s_quick = PerfOptions.Default with
    {
        WarmupTime = TimeSpan.FromMilliseconds(30),
        Samples = 100,
        CalibrationSamples = 50,
        TimeBudget = TimeSpan.FromSeconds(1),
    };

    [Fact]
    public void Run_RecordsHowFastTheMachineRan()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["tsc"] }, static () => 1);

        // Nanoseconds per 1,000 dependent multiply-adds: at least a cycle each on any CPU of this century, so 100-100,000.
        result.Run.MachineSpeedNanoseconds.ShouldBeInRange(100, 100_000);
        Picollo.Baselines.Records.BaselineRecord.FromResult(result).MachineSpeed.ShouldBe(result.Run.MachineSpeedNanoseconds);

        // A body that allocates nothing gets no allocation probe between its samples.
        result.Run.AllocationSpeedNanoseconds.ShouldBe(double.NaN);
        Picollo.Baselines.Records.BaselineRecord.FromResult(result).AllocationSpeed.ShouldBeNull();
    }

    [Fact]
    public void AllocatingBody_RecordsHowFastTheProcessAllocated_WithoutCountingTheProbe()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["allocated-bytes", "tsc"] }, MeasuredBodies.Allocate64);

        // A new byte[8] takes a few nanoseconds on any machine; 0.5-1,000 leaves room for a slow VM and a collection or two.
        result.Run.AllocationSpeedNanoseconds.ShouldBeInRange(0.5, 1_000);
        Picollo.Baselines.Records.BaselineRecord.FromResult(result).AllocationSpeed.ShouldBe(result.Run.AllocationSpeedNanoseconds);

        // The probes allocate 32 KB each between samples: none of it is in any sample.
        result.AllocatedBytes.P100.ShouldBe(88);
        result.AllocatedBytes.SampleCount.ShouldBe(result.SampleCount);
    }

    [Fact]
    public void AllocatingBody_Measures88BytesPerOperationAtP0P50AndP100()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["allocated-bytes", "tsc"] }, MeasuredBodies.Allocate64);

        CounterResult allocated = result.AllocatedBytes;
        allocated.IsAvailable.ShouldBeTrue();
        allocated.P0.ShouldBe(88);
        allocated.P50.ShouldBe(88);
        allocated.P100.ShouldBe(88);
        allocated.Mean.ShouldBe(88);
        allocated.Overhead!.Median.ShouldBe(0UL);
    }

    [Fact]
    public void AllocatingBody_OneOperationPerSample_IsAPerOperationDistributionOf88()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["allocated-bytes"], OperationsPerSample = 1 }, MeasuredBodies.Allocate64);

        CounterResult allocated = result.AllocatedBytes;
        allocated.IsPerOperationDistribution.ShouldBeTrue();
        allocated.OperationsPerSample.ShouldBe(1);
        allocated.P0.ShouldBe(88);
        allocated.P100.ShouldBe(88);
        allocated.Summary.P50.Value.ShouldBeInRange(87UL, 89UL);
    }

    [Fact]
    public void ZeroAllocationBody_MeasuresZero_SoTheSampleLoopAllocatesNothing()
    {
        PerfResult result = Perf.Measure(s_quick, 1_000, static n => MeasuredBodies.Chain(n));

        // Not only after subtraction: the empty-body calibration (boundary reads + loop) saw 0 in every sample too,
        // and no raw sample exceeded it, so reads, loop and sink allocate nothing.
        CounterResult allocated = result.AllocatedBytes;
        allocated.Overhead!.Max.ShouldBe(0UL);
        allocated.P100.ShouldBe(0);
        allocated.Samples.ToArray().ShouldAllBe(v => v == 0);
        result.Gen0Collections.P100.ShouldBe(0);
    }

    [Theory]
    [InlineData(1L)]
    [InlineData(0L)]
    public void KnownWork_ChainOf2N_Measures2xTheChainOfN_OnTscAndTaskClock(long operationsPerSample)
    {
        // 5,000 dependent xor+add steps: 7,200-9,600 TSC ticks here, against a boundary (two perf read()s and the TSC) of
        // 3,400-5,800. With one operation per sample the 2.0 ratio therefore depends on the calibrated overhead being
        // subtracted: left in, it reads (2w + o) / (w + o) ≈ 1.6-1.7, which this VM's noise also reads (the bounds below).
        const int N = 5_000;
        PerfOptions options = s_quick with { Counters = ["tsc", "task-clock"], OperationsPerSample = operationsPerSample, Samples = 200 };

        // Seven rounds, each measuring N then 2N right after it, and the median of the rounds' ratios. Two measurements a
        // moment apart mostly see the same machine: a busy neighbour that preempts samples, or the host's slower state
        // (on these shared VMs a core's speed changes for seconds at a time, by 10 % and more), inflates both or one round.
        // The lowest median of each size over rounds, used before, mixed moments: a CI run read 1.79 when its fastest 2N
        // round came from a faster moment than its fastest N round. A real fault (the overhead left in, half of the work
        // lost or counted twice) reads wrong in every round, so the median shows it.
        // One delegate for both sizes: two lambdas each inline the chain into code of their own, whose loops the JIT may
        // place differently, and one of them ran 6 % faster per step than the other in some processes. The chain is compiled
        // optimized at its first call: with tiered code the first round of a process measured N at 34,765 ticks (tier-0 code
        // through the short warmup) against 7,900 after, a ratio of 0.54 that only the median hid.
        var rounds = new List<(PerfResult Single, PerfResult Twice)>();
        for (int round = 0; round < 7; round++)
            rounds.Add((Perf.Measure(options, N, s_chain), Perf.Measure(options, 2 * N, s_chain)));

        // With one operation per sample the boundary is half of each sample, and beside a process that keeps the other core
        // busy the overhead calibrated for one size missed the other's by a fifth: the medians read 1.80 and 2.21 in two of
        // six such suite runs (issue 24), where the fault this case is for reads 1.6-1.7. Its rounds taken beside busy
        // processes are left out, and with fewer than four quiet ones it cannot tell and says so.
        if (operationsPerSample == 1)
        {
            rounds = [.. rounds.Where(static r => !MachineLoad.IsBusy(r.Single.Run.OtherProcessesCores) && !MachineLoad.IsBusy(r.Twice.Run.OtherProcessesCores))];
            if (rounds.Count < 4)
                Assert.Skip($"Only {rounds.Count} of 7 rounds ran while other processes left the machine quiet: one operation per sample cannot tell the overhead's subtraction beside them.");
        }

        // With one operation per sample even quiet rounds read 1.67-2.10 (median 1.754 in a quiet suite run, issue 24): the
        // boundary measured inside the samples outgrew the calibrated one by about a third, within this VM's noise, so the
        // case holds only the gross faults (half the work lost 1.0, counted twice 4, the overhead subtracted twice 2.8+);
        // whether the overhead is fully subtracted is the pilot-chosen case's to show, where it is 1 % of a sample.
        (double low, double high) = operationsPerSample == 1 ? (1.45, 2.75) : (1.8, 2.5);
        AssertTwice(rounds, CounterNames.Tsc, low, high);
        if (!rounds[0].Single.TaskClock.IsAvailable)
            Assert.Skip("task-clock: " + rounds[0].Single.TaskClock.UnavailableReason);
        AssertTwice(rounds, CounterNames.TaskClock, low, high);
    }

    private static readonly Func<int, long> s_chain = static n => MeasuredBodies.OptimizedChain(n);

    private static void AssertTwice(List<(PerfResult Single, PerfResult Twice)> rounds, string counter, double low, double high)
    {
        double[] ratios = [.. rounds.Select(r => r.Twice[counter].P50 / r.Single[counter].P50).Order()];
        double median = ratios[ratios.Length / 2];
        string detail = string.Join("\n", rounds.Select(r => Describe(r.Single, r.Twice, counter)));
        CounterResult first = rounds[0].Single[counter];
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{counter}: ratios {string.Join(", ", ratios.Select(static r => r.ToString("F3", CultureInfo.InvariantCulture)))}; N's first round P50 {first.P50:F0} per op, overhead {first.Overhead?.Median} per sample, {rounds[0].Single.OperationsPerSample} op(s) per sample"));
        // The faults this test is for read outside [low, high] (1.8-2.5 where the pilot chooses the operations): the overhead
        // left in reads (2w + o) / (w + o) ≈ 1.6-1.7, subtracted twice (2w - o) / (w - o) ≈ 2.8, half the work lost 1.0,
        // counted twice 4.
        median.ShouldBeInRange(low, high, $"{counter}: the rounds' ratios {string.Join(", ", ratios.Select(static r => r.ToString("F3", CultureInfo.InvariantCulture)))}\n{detail}");
    }

    [Fact]
    public void Pilot_ChoosesOperationsPerSample_SoTheBoundaryCostsUnder1Percent()
    {
        PerfResult result = Perf.Measure(s_quick with { TimeBudget = TimeSpan.FromSeconds(1) }, 40, static n => MeasuredBodies.Chain(n));

        result.Run.IsBoundByTimeBudget.ShouldBeFalse(result.Run.ToString());
        result.OperationsPerSample.ShouldBeGreaterThan(1);
        // The choice, on the pilot's own estimates: a boundary under 1 % of a sample's operations.
        (result.Run.BoundaryNanoseconds / (result.OperationsPerSample * result.Run.OperationNanoseconds)).ShouldBeLessThan(0.01, result.Run.ToString());
        // What the samples then took: the body's speed may change between the pilot and the samples (a shared VM's levels
        // differ by up to 2x, issue 24: one run read 22 ns per operation against the pilot's 34, a fraction of 1.13 %), so the
        // measured share is held to the same order, not to the pilot's target.
        result.Run.BoundaryFraction.ShouldBeLessThan(0.03, result.Run.ToString());
        result.Tsc.IsPerOperationDistribution.ShouldBeFalse();
    }

    [Fact]
    public void DefaultOptions_100NanosecondBody_GiveAVerdictInAboutOneSecond()
    {
        // Chain(250) ≈ 100 ns here. The default budget is 1 s; sampling stops at twice that at the latest. The warmup is
        // bounded on its own: a body still on its way to tier 1 may wait up to Warmup.TierUpWait (a busy host delays the
        // background compilation), so the budget is held apart from it, each with half a second for the boundaries.
        PerfResult result = Perf.Measure(PerfOptions.Default, 250, static n => MeasuredBodies.Chain(n));

        string detail = $"wall {result.WallTime.TotalMilliseconds:F0} ms, {result.Run}, tsc {result.Tsc}, task-clock {result.TaskClock}";
        TestContext.Current.TestOutputHelper?.WriteLine(detail);
        (result.WallTime - result.Run.WarmupTime).ShouldBeLessThan(TimeSpan.FromSeconds(2.5), detail);
        result.Run.WarmupTime.ShouldBeLessThan(Warmup.TierUpWait + TimeSpan.FromSeconds(0.5), detail);
        result.SampleCount.ShouldBe(PerfOptions.Default.Samples);
    }

    [Fact]
    public void OverheadCalibration_IsRecordedForEveryAvailableCounter()
    {
        PerfResult result = Perf.Measure(s_quick with { CalibrationSamples = 64 }, 100, static n => MeasuredBodies.Chain(n));

        foreach (CounterResult counter in result.Counters.Where(c => c.IsAvailable))
        {
            CounterOverhead overhead = counter.Overhead.ShouldNotBeNull();
            overhead.SampleCount.ShouldBe(64);
            overhead.Histogram.TotalCount.ShouldBe(64UL);
            overhead.Min.ShouldBeLessThanOrEqualTo(overhead.Median);
            overhead.Median.ShouldBeLessThanOrEqualTo(overhead.Max);
            counter.Histogram.TotalCount.ShouldBe((ulong)result.SampleCount);
        }

        // A boundary always takes time: the TSC's overhead cannot be 0.
        result.Tsc.Overhead!.Median.ShouldBeGreaterThan(0UL);
    }

    [Fact]
    public void PerfEventCounters_ReportTheirMultiplexingRatio_OthersNaN()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["task-clock", "page-faults", "tsc"] }, 200, static n => MeasuredBodies.Chain(n));

        // Software events are never multiplexed: they ran whenever they were enabled.
        result.TaskClock.MultiplexingRatio.ShouldBe(1.0);
        result.PageFaults.MultiplexingRatio.ShouldBe(1.0);
        result.Tsc.MultiplexingRatio.ShouldBe(double.NaN);
    }

    [Fact]
    public void UnavailableCounters_HaveResultsWithTheirReasons()
    {
        // In user-only mode the kernel never counts context switches (docs/ARCHITECTURE.md, "Platform facts"): unavailable on every machine.
        PerfResult result = Perf.Measure(s_quick with { Counters = ["tsc", "context-switches"] }, static () => { });

        CounterResult switches = result["context-switches"];
        switches.IsAvailable.ShouldBeFalse();
        switches.UnavailableReason.ShouldNotBeNullOrWhiteSpace();
        double.IsNaN(switches.P50).ShouldBeTrue();
        switches.SampleCount.ShouldBe(0);

        CounterResult notRequested = result.Instructions;
        notRequested.IsAvailable.ShouldBeFalse();
        notRequested.UnavailableReason.ShouldBe("The counter 'instructions' was not measured: add it to PerfOptions.Counters (in a perf test, to the attribute's Counters, e.g. Counters = \"tsc,instructions\").");
    }

    [Fact]
    public void DefaultCounters_AreAllReported_AvailableOrNot()
    {
        PerfResult result = Perf.Measure(s_quick, static () => 42);

        result.Counters.Select(c => c.Name).ShouldBe(PerfOptions.DefaultCounters);
        result.Tsc.IsAvailable.ShouldBe(Tsc.IsSupported);
        result.AllocatedBytes.IsAvailable.ShouldBeTrue();
        result.Counters.Where(c => !c.IsAvailable).ShouldAllBe(c => !string.IsNullOrWhiteSpace(c.UnavailableReason));
        result["CPU-CYCLES"].ShouldBeSameAs(result.Cycles);
    }

    [Fact]
    public void AllocationTooLargeForANoGCRegion_RunSaysWhyNoneWasUsed_ButNotAmongTheNotes()
    {
        PerfResult result = Perf.Measure(s_quick with { Counters = ["allocated-bytes", "gen0-collections"], NoGCRegionMaxBytes = 1 }, MeasuredBodies.Allocate64);

        result.Run.UsedNoGCRegion.ShouldBeFalse();
        result.Run.NoGCRegionNote.ShouldNotBeNull().ShouldStartWith("No no-GC region: the samples should allocate about");

        // Issue 27: every allocating test printed it, with a fix no test attribute offers; its collections are the body's
        // own cost, which gen0-collections reports.
        result.Run.Notes.ShouldNotContain(static n => n.Contains("no-GC region", StringComparison.OrdinalIgnoreCase), string.Join("\n", result.Run.Notes));
        result.ToMarkdown().ShouldNotContain("no-GC region");
    }

    [Fact]
    public void Run_PinsTheThread_AndRestoresItsAffinity()
    {
        string before = CurrentAffinity();

        PerfResult result = Perf.Measure(s_quick with { Counters = ["tsc"] }, static () => { });

        (result.PinnedCpu is not null || result.Run.PinningFailureReason is not null).ShouldBeTrue();
        CurrentAffinity().ShouldBe(before);
    }

    [Fact]
    public void NestedMeasure_Throws()
    {
        var e = Should.Throw<InvalidOperationException>(() => Perf.Measure(
            s_quick with { Counters = ["tsc"], WarmupTime = TimeSpan.Zero },
            static () => Perf.Measure(static () => { })));

        e.Message.ShouldContain("cannot nest");
    }

    [Fact]
    public void UnknownCounterName_ThrowsWithTheValidNames()
    {
        var e = Should.Throw<ArgumentException>(() => Perf.Measure(s_quick with { Counters = ["tsc", "cylces"] }, static () => { }));

        e.Message.ShouldContain("Unknown counter 'cylces'");
        e.Message.ShouldContain("allocated-bytes");
    }

    // The kernel's view of this thread's affinity: /proc/thread-self is the calling thread's own entry.
    private static string CurrentAffinity() => File.ReadLines("/proc/thread-self/status").Single(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));

    private static string Describe(PerfResult single, PerfResult twice, string counter)
        => $"{single[counter]} (ops {single.OperationsPerSample}, overhead {single[counter].Overhead?.Median}) vs {twice[counter]} (overhead {twice[counter].Overhead?.Median})";
}
