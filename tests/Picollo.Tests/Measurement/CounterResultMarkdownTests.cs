using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

public sealed class CounterResultMarkdownTests
{
    // 64 bytes in each of 1,668 operations: 106,752 per sample, which the histogram's buckets do not hold exactly.
    private static CounterResult Allocated64() =>
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_668, Enumerable.Repeat(64UL * 1_668, 100));

    // 13 to 20 misses per 1,668 operations: fractions of one per operation (0.008 to 0.012).
    private static CounterResult BranchMisses() =>
        SyntheticResults.Counter("branch-misses", "events", CounterKind.Hardware, 1_668, Enumerable.Range(0, 100).Select(i => (ulong)(13 + (i % 8))));

    [Fact]
    public void PerOperationTable_ShowsExactValuesOfTheSamples_NotBucketMidpoints()
    {
        CounterResult allocated = Allocated64();
        string markdown = allocated.ToMarkdown();

        markdown.ShouldStartWith("##### allocated-bytes (bytes per operation, from samples of 1,668 operations)\n");
        markdown.ShouldContain("| 50         |    64 |   ");
        markdown.ShouldNotContain("64.0");
        (allocated.Summary.P50.Value / 1_668.0).ShouldNotBe(64, "the per-sample histogram's bucket is not exact, or this test proves nothing");
    }

    [Fact]
    public void PerOperationTables_OfAnExactAndAFractionalCounter_AreApproved()
        => Approvals.Verify(Allocated64().ToMarkdown() + BranchMisses().ToMarkdown(CounterValues.PerOperation), "CounterResult.PerOperation");

    [Fact]
    public void PerSampleTable_IsTheHistogramSummary_TitledPerSample()
    {
        CounterResult allocated = Allocated64();

        allocated.ToMarkdown(CounterValues.PerSample).ShouldBe(allocated.Summary.ToMarkdown("allocated-bytes (bytes per sample of 1,668 operations)"));
    }

    [Fact]
    public void OneOperationPerSample_TitleSaysPerOperation_EitherWay()
    {
        CounterResult single = SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1, [88, 88, 88]);

        single.Title(CounterValues.PerOperation).ShouldBe("allocated-bytes (bytes per operation)");
        single.Title(CounterValues.PerSample).ShouldBe("allocated-bytes (bytes per operation)");
    }

    [Fact]
    public void UndefinedValues_Throw()
        => Should.Throw<ArgumentOutOfRangeException>(() => Allocated64().ToMarkdown((CounterValues)7)).Message.ShouldContain("PerOperation or PerSample");

    [Fact]
    public void PerfResultMarkdown_HasTheNotes_ThenTheTables_ThenTheUnavailableCounters_PerOperationByDefault()
    {
        PerfResult result = SyntheticResults.Result(
            WarmupEnd.CodeUnoptimized,
            ["The measured body (a lambda in ParserPerf.ParseSmall) is in ParserTests.dll, built without optimizations (Debug configuration): its numbers are not what Release code does. Run `dotnet test -c Release`."],
            Allocated64(),
            SyntheticResults.Unavailable("cycles", "No hardware PMU."),
            BranchMisses());

        Approvals.Verify(result.ToMarkdown(), "PerfResult.PerOperation");
        Approvals.Verify(result.ToMarkdown(CounterValues.PerSample), "PerfResult.PerSample");
    }
}
