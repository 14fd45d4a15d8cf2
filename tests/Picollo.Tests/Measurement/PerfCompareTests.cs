using Picollo.Assertions;
using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// The paired engine end to end on the real machine (issue 25): both sides sampled in lock-step, twice the work found
/// as about twice the time, allocations compared exactly, a body that throws named by its side. Effects are large (2×)
/// and bounds loose, so the tests hold on a busy machine; the fine figures are in bench/RESULTS.md ("paired").
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class PerfCompareTests
{
    private static readonly PerfOptions s_quick = PerfOptions.Default with
    {
        // Warmup ends at half the budget while the process compiles (other test classes run beside this one): with 300 ms
        // the chain was still in its on-stack-replaced code in the reference's samples and the 2× candidate measured 1.19×.
        WarmupTime = TimeSpan.FromMilliseconds(100),
        Samples = 200,
        CalibrationSamples = 50,
        TimeBudget = TimeSpan.FromSeconds(1),
        Counters = ["tsc", "task-clock", "allocated-bytes"],
    };

    [Fact]
    public void TwiceTheWork_IsAboutTwiceTheTime_AndBothSidesHaveTheSamePairs()
    {
        PerfComparison c = Perf.Compare(s_quick, 2_000, static n => MeasuredBodies.OptimizedChain(n), static n => MeasuredBodies.OptimizedChain(2 * n));

        c.Reference.SampleCount.ShouldBe(c.Candidate.SampleCount);
        c.Reference.OperationsPerSample.ShouldBe(c.Candidate.OperationsPerSample);
        c.Tsc.Pairs.ShouldBe(c.Reference.SampleCount);
        c.Tsc.Ratio.ShouldBeInRange(1.5, 2.6);
        c.Tsc.Low.ShouldBeLessThanOrEqualTo(c.Tsc.Ratio);
        c.Tsc.High.ShouldBeGreaterThanOrEqualTo(c.Tsc.Ratio);
        c.Tsc.Change.ShouldBe(PairedChange.Increased);
        c.Tsc.CohensDz.ShouldBeGreaterThan(0);
        c.TaskClock.Ratio.ShouldBeInRange(1.5, 2.7);
        Should.Throw<PerfAssertionException>(() => c.Tsc.ShouldNotBeSlower(maxChange: 0.2)).Message.ShouldContain("slower");
        c.Tsc.ShouldBeFasterBy(0.3);
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"final code: {c.RanFinalCode}, set aside: {c.SetAside.Count} ({string.Join(" | ", c.SetAside)}), notes: {string.Join(" ", c.Reference.Run.Notes)}");
    }

    [Fact]
    public void Allocations_AreComparedExactly_PerSide()
    {
        PerfComparison c = Perf.Compare(s_quick, static () => 1L, static () => { MeasuredBodies.Allocate64(); return 1L; });

        c.AllocatedBytes.ReferenceMean.ShouldBe(0);
        c.AllocatedBytes.CandidateMean.ShouldBe(88);
        c.AllocatedBytes.Change.ShouldBe(PairedChange.Increased);
        Should.Throw<PerfAssertionException>(() => c.AllocatedBytes.ShouldNotIncrease()).Message.ShouldContain("88 bytes per operation (candidate, +88, exact)");
    }

    [Fact]
    public void ABodyThatThrows_IsNamedBySide_BeforeAnythingIsMeasured()
    {
        PerfBodyException e = Should.Throw<PerfBodyException>(() => Perf.Compare(s_quick, static () => { }, static () => throw new FormatException("bad input")));

        e.Side.ShouldBe("candidate");
        e.Message.ShouldStartWith("The candidate threw FormatException on its first call: bad input");
        e.InnerException.ShouldBeOfType<FormatException>();
    }

    [Fact]
    public void ACompareInsideAMeasuredBody_IsRefused()
    {
        Should.Throw<InvalidOperationException>(() => Perf.Measure(s_quick with { Samples = 10 }, static () => Perf.Compare(static () => { }, static () => { })))
            .Message.ShouldContain("measurements cannot nest");
    }
}
