extern alias HdrNet;
using System.Runtime.CompilerServices;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Counters;
using Picollo.Metrics;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;
using ByteBuffer = HdrNet::HdrHistogram.Utilities.ByteBuffer;
using HistogramEncoding = HdrNet::HdrHistogram.HistogramEncoding;

namespace Picollo.Tests.Baselines;

// The HdrHistogram.NET package declares a namespace HdrHistogram, which global lookup finds before
// the type imported by a top-level using.
using HdrHistogram = Picollo.Metrics.HdrHistogram;

/// <summary>
/// Format version 2 (issue 27): a reviewer reads a counter in a few lines, its histogram is one line of HdrHistogram's
/// compressed V2 base64, and files of version 1 (a line per bucket) still read and are rewritten as version 2.
/// </summary>
public sealed class BaselineFileFormatTests
{
    [Fact]
    public void Version1File_ReadsAsItWas_AndIsWrittenAsVersion2()
    {
        string version1 = Fixture("Baseline.TwoMachines.version1.json");

        BaselineFile read = BaselineJson.Parse(version1, "T.M.perf.json");

        // The same data as the golden version 2 file, written the version 2 way.
        string written = read.ToJson();
        written.ShouldBe(Fixture("Baseline.TwoMachines.approved.json"));
        written.ShouldContain("\"version\": 2,");
        written.ShouldNotContain("\"buckets\"");
    }

    [Fact]
    public void RecordedVersion1File_KeepsEveryCount_AndShrinksToAFewLinesPerCounter()
    {
        // A baseline of the sample repository as it was committed with format version 1 (543 lines for one machine).
        string version1 = Fixture("WordsPerf.Count.version1.perf.json");
        BaselineEntry before = BaselineJson.Parse(version1).Entries.ShouldHaveSingleItem();

        string version2 = new BaselineFile([before]).ToJson();
        BaselineEntry after = BaselineJson.Parse(version2).Entries.ShouldHaveSingleItem();

        after.Record.Counters.Count.ShouldBe(before.Record.Counters.Count);
        foreach (BaselineCounter counter in before.Record.Counters)
        {
            BaselineCounter again = after.Record.Find(counter.Name).ShouldNotBeNull();
            again.Histogram.ToJson().ShouldBe(counter.Histogram.ToJson(), $"{counter.Name}'s histogram");
            again.PerOperation.ShouldBe(counter.PerOperation);
            again.Recording.ShouldBe(counter.Recording);
        }

        int counters = before.Record.Counters.Count;
        int lines = version2.Count(c => c == '\n');
        version1.Count(c => c == '\n').ShouldBeGreaterThan(500);

        // The goal: at most 15 lines per counter per machine entry, the machine and options included.
        ((double)lines / counters).ShouldBeLessThanOrEqualTo(15, version2);
        CounterBlocks(version2).ShouldAllBe(block => block.Length <= 9);
    }

    [Fact]
    public void HistogramLine_IsHdrHistogramV2_ThatHdrHistogramNetDecodes()
    {
        HdrHistogram histogram = Noisy(1_000, 50, seed: 5);
        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(histogram)))]).ToJson();

        string base64 = HdrV2Of(json);
        base64.ShouldStartWith("HISTF");
        var decoded = HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(Convert.FromBase64String(base64)), 0);
        decoded.TotalCount.ShouldBe((long)histogram.TotalCount);
        ulong median = histogram.GetPercentileValue(50);
        decoded.GetValueAtPercentile(50).ShouldBeInRange((long)(median * 0.998), (long)(median * 1.002));
    }

    [Theory]
    [InlineData(0.0625)]
    [InlineData(0.0009765625)]
    [InlineData(0.00048828125)]
    [InlineData(3.814697265625E-06)]
    public void EveryLayoutV2Holds_RoundTripsCountForCount(double relativeError)
    {
        HdrHistogram histogram = HdrHistogram.Factory.WithRelativeError(relativeError).Create();
        var random = new Random(11);
        for (int i = 0; i < 5_000; i++)
            histogram.Record((ulong)(Math.Exp(random.NextDouble() * 30)));

        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(histogram)))]).ToJson();

        json.ShouldContain("\"hdrV2\": \"HISTF");
        HdrHistogram read = BaselineJson.Parse(json).Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram;
        read.ToJson().ShouldBe(histogram.ToJson());
    }

    [Fact]
    public void LayoutFinerThanV2_KeepsItsBuckets_OnOneLine()
    {
        // Block size 262144: finer than HdrHistogram's five significant digits, which would merge neighbours.
        HdrHistogram histogram = HdrHistogram.Factory.WithRelativeError(1.9073486328125E-06).Create();
        histogram.Record(100_000);
        histogram.Record(100_001);
        histogram.Record(5_000_000, 3);

        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(histogram)))]).ToJson();

        json.ShouldNotContain("hdrV2");
        json.ShouldContain("\"buckets\": { \"100000\": 1, \"100001\": 1, \"5000000\": 3 }");
        BaselineJson.Parse(json).Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram.ToJson().ShouldBe(histogram.ToJson());
    }

    [Fact]
    public void RangeStorageAndOverflow_AreWrittenOnlyWhenNotTheDefaults_AndRoundTrip()
    {
        HdrHistogram usual = Constant(100);
        HdrHistogram unusual = HdrHistogram.Factory.WithRelativeError(0.0009765625).WithMinTrackableValue(10).WithMaxTrackableValue(1_000_000).WithUInt32Storage().Create();
        unusual.Record(500, 7);
        unusual.Record(5_000_000);

        string json = new BaselineFile([
            new BaselineEntry(Epyc, Record(TaskClock(usual))),
            new BaselineEntry(Xeon, Record(TaskClock(unusual))),
        ]).ToJson();

        json.ShouldContain("\"histogram\": { \"relativeError\": 0.0009765625, \"hdrV2\": \"HISTF");
        json.ShouldContain("\"histogram\": { \"relativeError\": 0.0009765625, \"minTrackableValue\": 10, \"maxTrackableValue\": 1000000, \"storage\": \"uint32\", \"overflowCount\": 1, \"hdrV2\": \"HISTF");
        BaselineFile read = BaselineJson.Parse(json);
        read.Find(Epyc.Id)!.Record.Find("task-clock")!.Histogram.ToJson().ShouldBe(usual.ToJson());
        read.Find(Xeon.Id)!.Record.Find("task-clock")!.Histogram.ToJson().ShouldBe(unusual.ToJson());
    }

    [Fact]
    public void CorruptHdrV2_IsReportedAtItsField()
    {
        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(Constant(100))))]).ToJson();
        string corrupt = json.Replace(HdrV2Of(json), "HISTFnot-base64!", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(corrupt, "/repo/T.M.perf.json"));

        ex.JsonPath.ShouldBe($"$.entries['{Epyc.Id}'].counters['task-clock'].histogram.hdrV2");
        ex.Message.ShouldStartWith($"Invalid baseline file /repo/T.M.perf.json at $.entries['{Epyc.Id}'].counters['task-clock'].histogram.hdrV2: ");
        ex.Message.ShouldContain("not base64");
        ex.Message.ShouldContain("PICOLLO_UPDATE_BASELINES=1");
    }

    [Fact]
    public void BothHdrV2AndBuckets_AreRejected()
    {
        string json = new BaselineFile([new BaselineEntry(Epyc, Record(TaskClock(Constant(100))))]).ToJson();
        string both = json.Replace("\"hdrV2\":", "\"buckets\": { \"100\": 1000 }, \"hdrV2\":", StringComparison.Ordinal);

        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(both, "f.perf.json"));

        ex.JsonPath.ShouldBe($"$.entries['{Epyc.Id}'].counters['task-clock'].histogram");
        ex.Message.ShouldContain("it holds both hdrV2 and buckets; keep one");
    }

    [Fact]
    public void TheOtherProcessesLoadOfARecording_IsStoredOnlyWhenTheyWereBusy_AndABadOneIsReportedAtItsField()
    {
        // A baseline recorded beside busy processes already holds their effect: its verdicts allow only how much it varies
        // (TimeAllowance.BusyBoundAsRecorded), so the file must say so. A quiet recording's file stays as it was.
        double busy = Math.Max(1, Environment.ProcessorCount - 1);
        string json = new BaselineFile([
            new BaselineEntry(Epyc, Record(TaskClock(Constant(100))) with { OtherProcessesCores = busy + 0.004 }),
            new BaselineEntry(Xeon, Record(TaskClock(Constant(100))) with { OtherProcessesCores = 0.03 }),
        ]).ToJson();

        json.ShouldContain($"\"otherProcessesCores\": {busy:0}", Case.Sensitive);
        json.Split("otherProcessesCores").Length.ShouldBe(2, "the quiet recording writes no load");
        BaselineFile read = BaselineJson.Parse(json);
        read.Find(Epyc.Id)!.Record.OtherProcessesCores.ShouldBe(busy, 0.001);
        double.IsNaN(read.Find(Xeon.Id)!.Record.OtherProcessesCores).ShouldBeTrue("absent reads as a quiet recording");

        string negative = json.Replace($"\"otherProcessesCores\": {busy:0}", "\"otherProcessesCores\": -1", StringComparison.Ordinal);
        var ex = Should.Throw<BaselineFormatException>(() => BaselineJson.Parse(negative, "/repo/T.M.perf.json"));
        ex.JsonPath.ShouldBe($"$.entries['{Epyc.Id}'].otherProcessesCores");
        ex.Message.ShouldContain("the other processes' load is a number of cores, 0 or more");
        ex.Message.ShouldContain("PICOLLO_UPDATE_BASELINES=1");
    }

    [Fact]
    public void WritingTwice_GivesTheSameText()
    {
        BaselineFile file = new([new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 50, seed: 3)), AllocatedBytes(Constant(88))))]);

        string once = file.ToJson();

        BaselineJson.Parse(once).ToJson().ShouldBe(once);
        BaselineJson.Parse(BaselineJson.Parse(once).ToJson()).ToJson().ShouldBe(once);
    }

    private static string HdrV2Of(string json)
    {
        const string Field = "\"hdrV2\": \"";
        int start = json.IndexOf(Field, StringComparison.Ordinal) + Field.Length;
        return json[start..json.IndexOf('"', start)];
    }

    // Each counter's lines, from its name to its closing brace.
    private static IEnumerable<string[]> CounterBlocks(string json)
    {
        string[] lines = json.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            if (lines[i].StartsWith("        \"", StringComparison.Ordinal) && lines[i].EndsWith('{'))
            {
                int end = Array.FindIndex(lines, i, l => l.StartsWith("        }", StringComparison.Ordinal));
                yield return lines[i..(end + 1)];
            }
        }
    }

    private static string Fixture(string name, [CallerFilePath] string callerFile = "") =>
        File.ReadAllText(Path.Combine(Path.GetDirectoryName(callerFile)!, "Approved", name)).ReplaceLineEndings("\n");
}
