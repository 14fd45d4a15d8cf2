using System.Runtime.CompilerServices;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

public sealed class BaselineFileTests
{
    // TwoMachines() as version 1 wrote it (a line per histogram bucket): the format files committed before version 2 hold.
    private static string Version1File([CallerFilePath] string callerFile = "") =>
        File.ReadAllText(Path.Combine(Path.GetDirectoryName(callerFile)!, "Approved", "Baseline.TwoMachines.version1.json"));

    private static BaselineFile TwoMachines() => new(
    [
        // Counters deliberately out of order: the file sorts them.
        new BaselineEntry(Xeon, Record(TaskClock(Constant(120, 3)), AllocatedBytes(Constant(88, 3)))),
        new BaselineEntry(Epyc, Record(TaskClock(Constant(100, 2)) with { Recording = new RecordingQuality(3, 0.0123456, 0.0789) })),
    ]);

    [Fact]
    public void TwoMachines_MatchGoldenFile() => Approvals.Verify(TwoMachines().ToJson(), "Baseline.TwoMachines", "json");

    [Fact]
    public void Json_UsesLfSortedKeysAndFinalNewline()
    {
        string json = TwoMachines().ToJson();

        json.ShouldNotContain("\r");
        json.ShouldEndWith("}\n");
        int xeon = json.IndexOf(Xeon.Id, StringComparison.Ordinal);
        json.IndexOf("\"allocated-bytes\"", xeon, StringComparison.Ordinal).ShouldBeLessThan(json.IndexOf("\"task-clock\"", xeon, StringComparison.Ordinal));
        json.IndexOf(Epyc.Id, StringComparison.Ordinal).ShouldBeLessThan(json.IndexOf(Xeon.Id, StringComparison.Ordinal));
    }

    [Fact]
    public void RoundTrip_IsExact()
    {
        BaselineFile file = new([
            new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 50, seed: 3)), AllocatedBytes(Constant(88)))),
            new BaselineEntry(Xeon, Record(Cycles(Noisy(3_000, 100, seed: 4)))),
        ]);

        string json = file.ToJson();
        BaselineFile read = BaselineJson.Parse(json);

        read.ToJson().ShouldBe(json);
        read.Find(Epyc.Id)!.Record.Find("task-clock")!.Recording.ShouldBeNull();
        read.Entries.Select(e => e.Machine.Id).ShouldBe([Epyc.Id, Xeon.Id]);
        BaselineEntry epyc = read.Find(Epyc.Id).ShouldNotBeNull();
        epyc.Record.RecordedUtc.ShouldBe(Recorded);
        epyc.Record.Options["samples"].ShouldBe("1000");
        epyc.Machine.ToString().ShouldBe(Epyc.ToString());
        epyc.Record.Find("task-clock")!.Histogram.ToJson().ShouldBe(file.Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram.ToJson());
    }

    [Fact]
    public void ClockRate_RoundTrips_AndIsWrittenOnlyWhereKnown()
    {
        var windows = new MachineFingerprint(
            Epyc.CpuModel, "X64", Epyc.IsaExtensions, false, 4, "Windows", "10.0.26100", "10.0.1", false, false, null, 10_000_000);
        BaselineCounter clock = BaselineCounter.FromHistogram("clock", "ns", Picollo.Counters.CounterKind.Clock, Noisy(1_000, 50, seed: 5), 1);
        BaselineFile file = new([new BaselineEntry(windows, Record(clock)), new BaselineEntry(Epyc, Record(AllocatedBytes(Constant(88))))]);

        string json = file.ToJson();
        BaselineFile read = BaselineJson.Parse(json);

        read.ToJson().ShouldBe(json);
        json.ShouldContain("\"clockHz\": 10000000");
        json.Split("\"clockHz\"").Length.ShouldBe(2, "only the entry whose machine has a clock rate writes one");
        BaselineEntry entry = read.Find(windows.Id).ShouldNotBeNull();
        entry.Machine.ClockHertz.ShouldBe(10_000_000);
        entry.Record.Find("clock").ShouldNotBeNull().Kind.ShouldBe(Picollo.Counters.CounterKind.Clock);
    }

    [Fact]
    public void Recording_RoundTrips_Rounded()
    {
        BaselineFile read = BaselineJson.Parse(TwoMachines().ToJson());

        read.Find(Epyc.Id)!.Record.Find("task-clock")!.Recording.ShouldBe(new RecordingQuality(3, 0.0123, 0.079));
        read.Find(Xeon.Id)!.Record.Find("task-clock")!.Recording.ShouldBeNull();
    }

    [Fact]
    public void WithEntry_ReplacesSameMachineCountersAndKeepsTheRest()
    {
        BaselineFile file = TwoMachines().WithEntry(new BaselineEntry(Xeon, Record(TaskClock(Constant(130))) with { RecordedUtc = Recorded.AddHours(1) }));

        file.Entries.Count.ShouldBe(2);
        BaselineEntry xeon = file.Find(Xeon.Id)!;
        xeon.Record.RecordedUtc.ShouldBe(Recorded.AddHours(1));
        xeon.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBe(130UL);
        xeon.Record.Find("allocated-bytes").ShouldNotBeNull();
        file.Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram.GetSummary().P50.Value.ShouldBe(100UL);
    }

    [Fact]
    public void SyntaxError_NamesFileLineAndByte()
    {
        string json = TwoMachines().ToJson().Replace("\"version\": 2,", "\"version\": 2,,", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "/repo/T.M.perf.json"));

        ex.FilePath.ShouldBe("/repo/T.M.perf.json");
        ex.LineNumber.ShouldBe(2);
        ex.BytePositionInLine.ShouldNotBeNull();
        ex.Message.ShouldStartWith("Invalid baseline file /repo/T.M.perf.json at $ (line 2, after byte ");
        ex.Message.ShouldContain("PICOLLO_UPDATE_BASELINES=1");
    }

    [Fact]
    public void MergeConflictMarkers_FailWithPosition()
    {
        string json = TwoMachines().ToJson().Replace("  \"entries\"", "<<<<<<< HEAD\n  \"entries\"", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.LineNumber.ShouldBe(3);
    }

    [Fact]
    public void Speeds_RoundTrip_Rounded_AndAreLeftOutWhenUnknown()
    {
        BaselineRecord record = Record(TaskClock(Noisy(1_000, 50, seed: 3))) with { MachineSpeed = 1_075.04, AllocationSpeed = 10.234 };
        string json = new BaselineFile([new BaselineEntry(Epyc, record)]).ToJson();

        json.ShouldContain("\"machineSpeed\": 1075,");
        json.ShouldContain("\"allocationSpeed\": 10.23,");
        BaselineRecord read = BaselineJson.Parse(json).Find(Epyc.Id)!.Record;
        read.MachineSpeed.ShouldBe(1_075);
        read.AllocationSpeed.ShouldBe(10.23);

        // A body that does not allocate has no allocation speed, and its entry no field for it.
        string without = new BaselineFile([new BaselineEntry(Epyc, record with { AllocationSpeed = null })]).ToJson();
        without.ShouldNotContain("allocationSpeed");
        BaselineJson.Parse(without).Find(Epyc.Id)!.Record.AllocationSpeed.ShouldBeNull();
    }

    [Fact]
    public void NegativeAllocationSpeed_IsRejectedAtItsPath()
    {
        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 50, seed: 3))) with { AllocationSpeed = 10 })]).ToJson()
            .Replace("\"allocationSpeed\": 10,", "\"allocationSpeed\": -1,", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.JsonPath.ShouldBe($"$.entries['{Epyc.Id}'].allocationSpeed");
        ex.Message.ShouldContain("the allocation speed is a positive number of nanoseconds.");
    }

    [Fact]
    public void MissingField_NamesItsPath()
    {
        string json = TwoMachines().ToJson().Replace("\"unit\": \"bytes\",", string.Empty, StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.JsonPath.ShouldBe($"$.entries['{Xeon.Id}'].counters['allocated-bytes']");
        ex.Message.ShouldContain("the required field 'unit' is missing");
    }

    [Fact]
    public void MalformedHistogramBucket_IsReportedWithItsLine()
    {
        string json = Version1File().Replace("\"88\": 3", "\"87.5\": 3", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.JsonPath!.ShouldContain("histogram.buckets");
        ex.LineNumber.ShouldBe(json[..json.IndexOf("87.5", StringComparison.Ordinal)].Count(c => c == '\n') + 1);
        ex.Message.ShouldContain("is not a bucket start value");
    }

    [Fact]
    public void InvalidHistogramLayout_IsReportedAtTheCounter()
    {
        string json = TwoMachines().ToJson().Replace("\"relativeError\": 0.0009765625", "\"relativeError\": 0.001", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.JsonPath.ShouldBe($"$.entries['{Epyc.Id}'].counters['task-clock'].histogram.relativeError");
        ex.InnerException.ShouldBeOfType<Picollo.Metrics.HdrHistogramFormatException>();
    }

    [Fact]
    public void EditedMachineFields_FailOnKeyMismatch()
    {
        string json = TwoMachines().ToJson().Replace("\"kernel\": \"6.18.0\"", "\"kernel\": \"6.18.1\"", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json, "f.perf.json"));

        ex.Message.ShouldContain("the key does not match the machine fields");
    }

    [Fact]
    public void UnknownVersion_IsRejected()
    {
        string json = TwoMachines().ToJson().Replace("\"version\": 2", "\"version\": 3", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(json));

        ex.JsonPath.ShouldBe("$.version");
        ex.Message.ShouldContain("format version 3 is not supported by this Picollo (it reads versions 1 and 2); update Picollo");
    }
}
