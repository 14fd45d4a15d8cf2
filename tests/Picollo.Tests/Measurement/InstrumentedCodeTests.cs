using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Measurement;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// A real measurement of code instrumented for code coverage (the probe says coverlet rewrote a module: FakeCoverage) says
/// why in its run, first among its notes, and is neither compared with a baseline nor recorded into one, in any mode; a
/// comparison says it too.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class InstrumentedCodeTests
{
    private static readonly PerfOptions s_quick = new() { Counters = ["allocated-bytes", "tsc"], Samples = 50, TimeBudget = TimeSpan.FromMilliseconds(300) };

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void InstrumentedMeasurement_SaysWhy_AndIsNotComparedNorRecorded(bool updateMode)
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("WordsPerf.cs");

        PerfResult result;
        using (FakeCoverage.Coverlet())
            result = Perf.Measure(s_quick, 2_000, static n => MeasuredBodies.Chain(n) + 7);

        string reason = result.Run.InstrumentedReason.ShouldNotBeNull();
        reason.ShouldStartWith("The measured body (a lambda in InstrumentedCodeTests.InstrumentedMeasurement_SaysWhy_AndIsNotComparedNorRecorded) "
            + $"runs code instrumented for code coverage: coverlet rewrote {FakeCoverage.Module} to count every line and branch it runs");
        result.Run.Notes[0].ShouldBe(reason);
        result.Run.IsOptimized.ShouldBeTrue("coverlet's modules are optimized code with counters added: a reason of their own");

        result.ShouldNotRegress(options: Options(temp, updateMode), callerFilePath: source, testMethod: "Count").ShouldBeSameAs(result);

        host.Notices.ShouldHaveSingleItem().Message.ShouldBe("Not compared with the baseline and not recorded: " + reason);
        Directory.GetFiles(temp.Path, "*.perf.json").ShouldBeEmpty("nothing is recorded from instrumented code, even in update mode");
        host.Output[^1].ShouldStartWith("#### WordsPerf.Count: not judged");
    }

    [Fact]
    public void InstrumentedComparison_SaysWhy()
    {
        PerfComparison comparison;
        using (FakeCoverage.Coverlet())
            comparison = Perf.Compare(s_quick, 2_000, static n => MeasuredBodies.Chain(n) + 8, static n => MeasuredBodies.Chain(n) + 9);

        comparison.Reference.Run.InstrumentedReason.ShouldNotBeNull().ShouldContain("runs code instrumented for code coverage");
        comparison.Candidate.Run.Notes[0].ShouldBe(comparison.Reference.Run.InstrumentedReason);
    }

    private static BaselineStoreOptions Options(TempDirectory temp, bool update) =>
        new() { UpdateBaselines = update, GetEnvironmentVariable = TestEnvironment.Local(temp) };
}
