using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Metrics;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The pilot chooses operations per sample on every run, so the same code is stored as sample totals of, say,
/// 1,000 operations one day and 950 the next: verdicts must compare per operation.
/// </summary>
[Collection(Picollo.Tests.Measurement.MeasurementTestGroup.Name)]
public sealed class BaselinePerOperationTests
{
    [Fact]
    public void SamePerOperationCost_AtDifferentOperationsPerSample_Passes()
    {
        CounterVerdict[] verdicts = Compare(
            [Allocated(Totals(88, 1_000), 1_000), Time(Totals(120, 1_000, spread: 0.01), 1_000)],
            [Allocated(Totals(88, 950), 950), Time(Totals(120, 950, spread: 0.01), 950)]);

        verdicts.ShouldAllBe(v => v.Status == CounterVerdictStatus.Pass);
        verdicts[0].BaselineValue!.Value.ShouldBe(88, tolerance: 0.1);
        verdicts[0].CurrentValue!.Value.ShouldBe(88, tolerance: 0.1);
    }

    [Fact]
    public void OneMoreBytePerOperation_AtDifferentOperationsPerSample_RegressesExactly()
    {
        CounterVerdict verdict = Compare([Allocated(Totals(88, 1_000), 1_000)], [Allocated(Totals(89, 950), 950)]).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.Text.ShouldContain("(exact)");
    }

    [Fact]
    public void TenPercentSlowerPerOperation_AtDifferentOperationsPerSample_Regresses()
    {
        CounterVerdict verdict = Compare(
            [Time(Totals(120, 1_000, spread: 0.01), 1_000)],
            [Time(Totals(132, 950, spread: 0.01), 950)]).ShouldHaveSingleItem();

        verdict.Status.ShouldBe(CounterVerdictStatus.Regressed);
        verdict.RelativeChange!.Value.ShouldBe(0.10, tolerance: 0.01);
    }

    [Fact]
    public void CohensD_OfTheSamePerOperationDistribution_AtDifferentGroupings_IsNearZero()
    {
        var a = Totals(120, 1_000, spread: 0.01).GetSummary();
        var b = Totals(120, 950, spread: 0.01).GetSummary();

        Math.Abs(HdrHistogramSummary.CohensD(a, b, 1_000, 950)).ShouldBeLessThan(0.1);
        HdrHistogramSummary.CohensD(a, b).ShouldBeLessThan(-3, "unscaled, the totals differ by 5%");
    }

    [Fact]
    public void RealMeasurement_StoredAndReadBack_PassesAgainstItself()
    {
        PerfResult result = Perf.Measure(
            new PerfOptions { Samples = 50, TimeBudget = TimeSpan.FromMilliseconds(200), Counters = ["tsc", "allocated-bytes"] },
            static () => new byte[64]);
        BaselineRecord record = BaselineRecord.FromResult(result);

        record.Counters.Select(c => c.Name).ShouldBe(["tsc", "allocated-bytes"], ignoreOrder: true);
        record.Counters.ShouldAllBe(c => c.OperationsPerSample == result.OperationsPerSample);
        record.Options["operationsPerSample"].ShouldBe(result.OperationsPerSample.ToString(System.Globalization.CultureInfo.InvariantCulture));

        var file = BaselineJson.Parse(new BaselineFile([new BaselineEntry(Epyc, record)]).ToJson());

        // What this test is about is the round trip, not the machine: another test project of the same `dotnet test`
        // keeping the other core busy would leave time unjudged (the busy-machine gate), so that reading is cleared.
        BaselineRecord current = record with { OtherProcessesCores = double.NaN };
        BaselineComparer.Compare(file, Epyc, current).ShouldAllBe(v => v.Status == CounterVerdictStatus.Pass);
        BaselineComparer.Compare(file, Epyc, current).Single(v => v.Counter == "allocated-bytes").CurrentValue!.Value.ShouldBe(88, tolerance: 0.1);
    }

    private static CounterVerdict[] Compare(BaselineCounter[] baseline, BaselineCounter[] current) =>
        [.. BaselineComparer.Compare(
            new BaselineFile([new BaselineEntry(Epyc, new BaselineRecord(baseline, new Dictionary<string, string>(), Recorded))]),
            Epyc,
            new BaselineRecord(current, new Dictionary<string, string>(), Recorded))];

    private static BaselineCounter Allocated(HdrHistogram h, double operations) => BaselineCounter.FromHistogram("allocated-bytes", "bytes", CounterKind.Runtime, h, operations);

    private static BaselineCounter Time(HdrHistogram h, double operations) => BaselineCounter.FromHistogram("task-clock", "ns", CounterKind.Software, h, operations);

    /// <summary>2,000 sample totals of <paramref name="operations"/> operations costing <paramref name="perOperation"/> each.</summary>
    private static HdrHistogram Totals(double perOperation, int operations, double spread = 0)
    {
        var h = HdrHistogram.Factory.Create();
        var random = new Random(operations);
        for (int i = 0; i < 2_000; i++)
            h.Record((ulong)Math.Round(perOperation * operations * (1 + (spread * ((2 * random.NextDouble()) - 1)))));
        return h;
    }
}
