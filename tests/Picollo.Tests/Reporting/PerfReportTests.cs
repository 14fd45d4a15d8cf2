using System.Text.Json;
using System.Xml.Linq;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;
using Picollo.Reporting.Serialization;
using Picollo.Tests.Assertions;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Reporting;

/// <summary>The per-test report in markdown, JSON and SVG, and the step-summary digest, from synthetic results.</summary>
public sealed class PerfReportTests
{
    private static readonly BaselineStoreOptions s_local = new() { GetEnvironmentVariable = static _ => null };

    [Fact]
    public void RegressedResult_Markdown_HasVerdictsSummariesAndDiffTable()
    {
        using var temp = new TempDirectory();
        PerfReport report = Regressed(temp);

        Approvals.Verify(report.ToMarkdown().Replace(temp.Path, "<temp>", StringComparison.Ordinal), "PerfReport.Regressed");
    }

    [Fact]
    public void Json_RoundTripsAndHoldsStatisticsHistogramAndVerdicts()
    {
        using var temp = new TempDirectory();
        string json = Regressed(temp).ToJson();

        PerfReportModel model = JsonSerializer.Deserialize(json, PerfReportJsonContext.Default.PerfReportModel).ShouldNotBeNull();
        model.Test.ShouldBe("SampleTests.Allocates");
        model.Verdict.ShouldBe("fail");
        model.ReceivedPath.ShouldBe(temp.Combine("SampleTests.Allocates.received.perf.json"));
        CounterReportModel allocated = model.Counters[0];
        allocated.Name.ShouldBe("allocated-bytes");
        allocated.Unit.ShouldBe("bytes");
        allocated.Kind.ShouldBe(CounterKind.Runtime);
        allocated.Available.ShouldBeTrue();
        allocated.OperationsPerSample.ShouldBe(1_000);
        allocated.PerOperation.ShouldBe(new PerOperationModel(176, 176, 176, 176, 176, 176, 176, 176, 0));
        allocated.Verdict!.Status.ShouldBe(CounterVerdictStatus.Regressed);
        allocated.Histogram!.Value.GetProperty("buckets").EnumerateObject().ShouldHaveSingleItem().Value.GetUInt64().ShouldBe(100UL);
        model.Counters[1].Verdict!.Status.ShouldBe(CounterVerdictStatus.Pass);
        model.Counters[2].Available.ShouldBeFalse();
        model.Counters[2].UnavailableReason.ShouldBe("No PMU.");
        model.Counters[2].PerOperation.ShouldBeNull();

        JsonSerializer.Serialize(model, PerfReportJsonContext.Default.PerfReportModel).ShouldBe(json);
    }

    [Fact]
    public void Svg_IsWellFormed_WithCurrentAndBaselineSeriesPerCounter()
    {
        using var temp = new TempDirectory();
        XDocument svg = XDocument.Parse(Regressed(temp).ToSvg());

        XNamespace ns = "http://www.w3.org/2000/svg";
        svg.Root!.Name.ShouldBe(ns + "svg");
        var lines = svg.Descendants(ns + "polyline").Select(static p => (string)p.Attribute("class")!).ToList();
        lines.ShouldBe(["baseline", "current", "baseline", "current"]);
        var labels = svg.Descendants(ns + "text").Select(static t => t.Value).ToList();
        labels.ShouldContain("99%");
        labels.ShouldContain("bytes per operation");
        labels.ShouldContain("baseline");
    }

    [Fact]
    public void Writer_WritesJsonAndSvgUnderTheResultsDirectory()
    {
        using var temp = new TempDirectory();
        var writer = new PerfReportWriter(getEnvironmentVariable: name => name == PerfReportWriter.ResultsDirectoryVariable ? temp.Combine("results") : null);

        PerfReportFiles files = writer.Write(Regressed(temp), "SampleTests", "Allocates", "size 64");

        files.JsonPath.ShouldBe(temp.Combine("results", "SampleTests.Allocates.size_64.result.json"));
        files.SvgPath.ShouldBe(temp.Combine("results", "SampleTests.Allocates.size_64.svg"));
        File.Exists(files.JsonPath).ShouldBeTrue();
        File.Exists(files.SvgPath).ShouldBeTrue();
    }

    [Fact]
    public void Writer_WithoutTheVariable_WritesUnderTheTestProjectsTestResults_AndTheVariableWins()
    {
        // issue 27: the test host's current directory is the build output, where nobody looks for reports.
        using var temp = new TempDirectory();
        string project = temp.Combine("Acme.PerfTests", "TestResults", "picollo");

        var writer = new PerfReportWriter(getEnvironmentVariable: static _ => null, projectResultsDirectory: project);
        PerfReportFiles files = writer.Write(Regressed(temp), "SampleTests", "Allocates");

        writer.ResultsDirectory.ShouldBe(project);
        files.JsonPath.ShouldBe(Path.Combine(project, "SampleTests.Allocates.result.json"));
        File.Exists(files.JsonPath).ShouldBeTrue();
        new PerfReportWriter(getEnvironmentVariable: name => name == PerfReportWriter.ResultsDirectoryVariable ? temp.Combine("ci") : null, projectResultsDirectory: project)
            .ResultsDirectory.ShouldBe(temp.Combine("ci"));
    }

    [Fact]
    public void StepSummary_AppendsToTheFileNamedByTheVariable_OnlyWhenSet()
    {
        using var temp = new TempDirectory();
        string summary = temp.Combine("summary.md");
        File.WriteAllText(summary, "Earlier step\n\n");
        PerfReport[] reports = [Regressed(temp), new PerfReport("Other|Tests.Measured", SyntheticResults.Result(SyntheticResults.Tsc()))];

        StepSummary.Append(reports, name => name == StepSummary.Variable ? summary : null).ShouldBe(summary);
        StepSummary.Append(reports, static _ => null).ShouldBeNull();

        File.ReadAllText(summary).ShouldBe("Earlier step\n\n\n" + StepSummary.ToMarkdown(reports).TrimEnd('\n') + "\n");
        Approvals.Verify(StepSummary.ToMarkdown(reports), "StepSummary.Digest");
    }

    [Fact]
    public void StepSummary_LaterAppendsOfTheProcess_ContinueItsTable_UntilSomethingElseIsWritten()
    {
        using var temp = new TempDirectory();
        string summary = temp.Combine("summary.md");
        Func<string, string?> environment = name => name == StepSummary.Variable ? summary : null;
        PerfReport first = new("Tests.First", SyntheticResults.Result(SyntheticResults.Tsc())), second = new("Tests.Second", first.Result);

        StepSummary.Append([first], environment);
        StepSummary.Append([second], environment);
        File.AppendAllText(summary, "Another step\n");
        StepSummary.Append([first], environment);

        string[] lines = File.ReadAllLines(summary);
        lines.Count(static l => l == "##### Picollo performance tests").ShouldBe(2);
        lines.Where(static l => l.StartsWith("| Tests.", StringComparison.Ordinal)).Count().ShouldBe(3);
        // One table: heading, header, delimiter, then both rows with no line between them.
        lines[0].ShouldBe("##### Picollo performance tests");
        lines[3].ShouldStartWith("| Tests.First ");
        lines[4].ShouldStartWith("| Tests.Second ");
        lines[5].ShouldBe("Another step");
        lines[6].ShouldBeEmpty();
        lines[7].ShouldBe("##### Picollo performance tests");
        lines[10].ShouldStartWith("| Tests.First ");
    }

    [Fact]
    public void StepSummary_FileLockedByAnotherWriter_WaitsForItThenAppends()
    {
        using var temp = new TempDirectory();
        string summary = temp.Combine("summary.md");
        var report = new PerfReport("Tests.Locked", SyntheticResults.Result(SyntheticResults.Tsc()));
        Exception? failure = null;

        // A thread of its own and Thread.Sleep, not Task.Run and Task.Delay: with the thread pool starved by the suite's
        // other tests a 200 ms delay once lasted 2 s, the lock's whole timeout, and the append gave up before the check.
        var append = new Thread(() =>
        {
            try
            {
                StepSummary.Append([report], name => name == StepSummary.Variable ? summary : null);
            }
            catch (IOException e)
            {
                failure = e;
            }
        });
        using (var other = new FileStream(summary, FileMode.Append, FileAccess.Write, FileShare.None))
        {
            other.Write("Other writer\n"u8);
            append.Start();
            Thread.Sleep(200);
            append.IsAlive.ShouldBeTrue("the append waits while another writer holds the file");
        }

        append.Join();
        failure.ShouldBeNull();
        string text = File.ReadAllText(summary);
        text.ShouldStartWith("Other writer\n\n##### Picollo performance tests\n");
        text.ShouldContain("| Tests.Locked ");
    }

    // A baseline recorded at 88 bytes per operation, then a run at 176: allocated-bytes regressed, tsc passed, cycles unavailable.
    [Fact]
    public void Markdown_CollapsesCountersThatCountedNothing_AndGroupsUnavailableOnesByReason()
    {
        using var temp = new TempDirectory();
        string path = temp.Combine("SampleTests.Quiet.perf.json");
        var store = new BaselineStore(s_local);
        PerfResult baseline = Quiet(gen2: 0);
        store.Update(path, new BaselineEntry(MachineFingerprint.Current, BaselineRecord.FromResult(baseline)));
        PerfResult current = Quiet(gen2: 0);
        BaselineCheckResult check = store.Check(path, MachineFingerprint.Current, BaselineRecord.FromResult(current));

        string markdown = new PerfReport("SampleTests.Quiet", current, check, BaselineStore.Read(path)).ToMarkdown();
        string unjudged = new PerfReport("SampleTests.Quiet", Quiet(gen2: 0)).ToMarkdown();
        string counting = new PerfReport("SampleTests.Quiet", Quiet(gen2: 1)).ToMarkdown();

        markdown.ShouldContain("gen0-collections, gen2-collections: 0 in every sample, as in the baseline: pass\n");
        markdown.ShouldContain("Unavailable: cycles, instructions (no PMU; 'picollo doctor' says why)\n");
        markdown.ShouldContain("Unavailable: context-switches (user-only mode; 'picollo doctor' says why)\n");
        markdown.ShouldNotContain("##### gen0-collections");
        markdown.ShouldContain("##### tsc (ticks per operation, from samples of 1,000 operations)");
        unjudged.ShouldContain("gen0-collections, gen2-collections: 0 in every sample\n");
        counting.ShouldContain("gen0-collections: 0 in every sample\n");
        counting.ShouldContain("##### gen2-collections (collections per operation, from samples of 1,000 operations)");
    }

    [Fact]
    public void RunCaveats_AreInTheMarkdownAndTheJson()
    {
        PerfResult result = SyntheticResults.Result(WarmupEnd.TimeCap, ["The warmup reached its time cap.", "Not pinned."], SyntheticResults.Tsc());
        var report = new PerfReport("SampleTests.Capped", result);

        string markdown = report.ToMarkdown();
        PerfReportModel model = JsonSerializer.Deserialize(report.ToJson(), PerfReportJsonContext.Default.PerfReportModel).ShouldNotBeNull();

        markdown.ShouldContain("in 1,000 ms (warmup 100 ms, ended by its time cap)\n\nNote: The warmup reached its time cap.\n\nNote: Not pinned.\n");
        model.WarmupEnd.ShouldBe("TimeCap");
        model.WarmupMs.ShouldBe(100);
        model.Notes.ShouldBe(["The warmup reached its time cap.", "Not pinned."]);
    }

    [Fact]
    public void Svg_DrawsNoPanelForCountersThatCountedNothing_AndLabelsSmallValues()
    {
        PerfResult result = SyntheticResults.Result(
            SyntheticResults.Counter("gen0-collections", "collections", CounterKind.Runtime, 1_000, Enumerable.Repeat(0UL, 100)),
            SyntheticResults.Counter("page-faults", "events", CounterKind.Software, 1_000, Enumerable.Range(0, 100).Select(static i => i < 90 ? 0UL : 1UL)));

        XDocument svg = XDocument.Parse(new PerfReport("SampleTests.Faults", result).ToSvg());

        XNamespace ns = "http://www.w3.org/2000/svg";
        var labels = svg.Descendants(ns + "text").Select(static t => t.Value).ToList();
        svg.Descendants(ns + "polyline").ShouldHaveSingleItem();
        labels.ShouldContain("0 in every sample: gen0-collections");
        svg.Root!.Attribute("height")!.Value.ShouldBe("336");
        labels.ShouldNotContain(l => l.StartsWith("gen0-collections (", StringComparison.Ordinal));

        // 1 fault in a sample of 1,000 operations: the y axis runs to 0.001, ticks every 0.00025.
        labels.ShouldContain("0.00025");
        labels.ShouldContain("0.001");
    }

    private static PerfResult Quiet(ulong gen2) => SyntheticResults.Result(
        SyntheticResults.Counter("gen0-collections", "collections", CounterKind.Runtime, 1_000, Enumerable.Repeat(0UL, 100)),
        SyntheticResults.Tsc(),
        SyntheticResults.Counter("gen2-collections", "collections", CounterKind.Runtime, 1_000, Enumerable.Range(0, 100).Select(i => i == 50 ? gen2 : 0UL)),
        SyntheticResults.Unavailable("cycles", "ENOENT opening 'cycles': no PMU."),
        SyntheticResults.Unavailable("context-switches", "user-only mode."),
        SyntheticResults.Unavailable("instructions", "ENOENT opening 'instructions': no PMU."));

    private static PerfReport Regressed(TempDirectory temp)
    {
        string path = temp.Combine("SampleTests.Allocates.perf.json");
        var store = new BaselineStore(s_local);
        store.Update(path, new BaselineEntry(MachineFingerprint.Current, BaselineRecord.FromResult(Allocating(88))));
        PerfResult current = Allocating(176);
        BaselineCheckResult check = store.Check(path, MachineFingerprint.Current, BaselineRecord.FromResult(current));
        return new PerfReport("SampleTests.Allocates", current, check, BaselineStore.Read(path));
    }

    private static PerfResult Allocating(ulong bytesPerOperation) => SyntheticResults.Result(
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(bytesPerOperation * 1_000, 100)),
        SyntheticResults.Tsc(),
        SyntheticResults.Unavailable("cycles", "No PMU."));
}
