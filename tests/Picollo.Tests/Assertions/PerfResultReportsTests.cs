using System.Text.Json;
using System.Xml.Linq;
using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary>
/// The report <c>ShouldNotRegress</c> and <c>WriteReport</c> produce by themselves, on real files in temporary
/// directories: the output, the attachments, the JSON and SVG files, the step summary, and IO failures that stay notices.
/// </summary>
public sealed class PerfResultReportsTests
{
    private static readonly XNamespace s_svg = "http://www.w3.org/2000/svg";

    [Fact]
    public void ShouldNotRegress_WritesJsonAndSvg_AttachesBoth_AndPrintsTheirPaths()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        host.Output.Clear();
        host.Attachments.Clear();

        Allocating(88).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocates");

        string json = temp.Combine("results", "SampleTests.Allocates.result.json"), svg = temp.Combine("results", "SampleTests.Allocates.svg");
        host.Attachments.ShouldBe([(json, "Picollo result (JSON)"), (svg, "Picollo percentile plot (SVG)")]);
        host.Output.ShouldHaveSingleItem().ShouldEndWith($"Report: {json}\nPlot: {svg}\n");
        using (JsonDocument result = JsonDocument.Parse(File.ReadAllText(json)))
        {
            result.RootElement.GetProperty("test").GetString().ShouldBe("SampleTests.Allocates");
            result.RootElement.GetProperty("verdict").GetString().ShouldBe("pass");
            result.RootElement.GetProperty("baselinePath").GetString().ShouldBe(temp.Combine("SampleTests.Allocates.perf.json"));
        }

        XDocument.Parse(File.ReadAllText(svg)).Descendants(s_svg + "polyline").Select(static p => (string)p.Attribute("class")!)
            .ShouldBe(["baseline", "current", "baseline", "current"]);
        host.Notices.Count.ShouldBe(1);
        host.Notices[0].Message.ShouldStartWith("Baseline updated:");
    }

    [Fact]
    public void ShouldNotRegress_Output_HasVerdictLinesOpsPerSampleOverheadSummaryAndDiffTables()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        host.Output.Clear();

        Allocating(88).ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Allocates");

        Approvals.Verify(host.Output.ShouldHaveSingleItem().Replace(temp.Path, "<temp>", StringComparison.Ordinal), "PerfResultReports.PassOutput");
    }

    [Fact]
    public void ShouldNotRegress_Update_ReportsTheBaselineItWasComparedWith_NotTheOneItWrote()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        Allocating(176).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        string output = host.Output[^1];
        output.ShouldStartWith("#### SampleTests.Allocates: updated\n");
        output.ShouldContain("allocated-bytes P50 +100.0% (88 → 176 bytes/op)");
        output.ShouldMatch(@"\| 50 +\| +88 \| +176 \| +\+100% \|");
    }

    [Fact]
    public void StepSummaryVariable_TwoTests_AppendTheirRows_AfterTheEarlierContent()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string summary = temp.Combine("summary.md");
        File.WriteAllText(summary, "Earlier step\n");
        var options = new BaselineStoreOptions { GetEnvironmentVariable = TestEnvironment.Local(temp, stepSummary: summary) };
        string source = temp.Combine("SampleTests.cs");

        Allocating(88).ShouldNotRegress(options: options, callerFilePath: source, testMethod: "First");
        Allocating(88).ShouldNotRegress(options: options, callerFilePath: source, testMethod: "Second");

        string[] lines = File.ReadAllLines(summary);
        lines[0].ShouldBe("Earlier step");
        lines.ShouldContain("##### Picollo performance tests");
        lines.ShouldContain(static l => l.StartsWith("| SampleTests.First | notice  | allocated-bytes |", StringComparison.Ordinal));
        lines.ShouldContain(static l => l.StartsWith("| SampleTests.Second | notice  | allocated-bytes |", StringComparison.Ordinal));
        host.Notices.Select(static n => n.Message).ShouldAllBe(static m => m.Contains("allocated-bytes, tsc: no baseline file"));
    }

    [Fact]
    public void ResultsDirectoryUnderARegularFile_IsANoticeWithPathAndRemedy_AndTheTestStillPasses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        host.Notices.Clear();
        host.Output.Clear();
        host.Attachments.Clear();
        File.WriteAllText(temp.Combine("file"), "not a folder");
        string results = temp.Combine("file", "results");

        Allocating(88).ShouldNotRegress(options: UnwritableResults(temp, results), callerFilePath: source, testMethod: "Allocates");

        (string assertion, string message) = host.Notices.ShouldHaveSingleItem();
        assertion.ShouldBe("Allocating(88).ShouldNotRegress()");
        message.ShouldStartWith($"Could not write the report files to {results}: ");
        message.ShouldContain("The verdict is unaffected");
        message.ShouldContain("Set PICOLLO_RESULTS_DIR to a writable folder");
        host.Attachments.ShouldBeEmpty();
        string output = host.Output.ShouldHaveSingleItem();
        output.ShouldStartWith("#### SampleTests.Allocates: pass\n");
        output.ShouldNotContain("Report: ");
    }

    [Fact]
    public void ResultsDirectoryUnderARegularFile_Regression_StillFailsWithItsVerdict()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        File.WriteAllText(temp.Combine("file"), "not a folder");
        PerfResult result = Allocating(176);

        string message = Should.Throw<PerfAssertionException>(() => result.ShouldNotRegress(
            options: UnwritableResults(temp, temp.Combine("file", "results")), callerFilePath: source, testMethod: "Allocates")).Message;

        message.ShouldContain("1 counter regressed: allocated-bytes");
        message.ShouldNotContain("Report: ");
        host.Notices[^1].Message.ShouldStartWith("Could not write the report files to ");
    }

    [Fact]
    public void StepSummaryUnderARegularFile_IsANoticeNamingTheFile_AndTheTestStillPasses()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        File.WriteAllText(temp.Combine("file"), "not a folder");
        string summary = temp.Combine("file", "summary.md");
        var options = new BaselineStoreOptions { GetEnvironmentVariable = TestEnvironment.Local(temp, stepSummary: summary) };

        Allocating(88).ShouldNotRegress(options: options, callerFilePath: temp.Combine("SampleTests.cs"), testMethod: "Allocates");

        host.Notices.Count.ShouldBe(2);
        host.Notices[0].Message.ShouldStartWith($"Could not append the digest to the job summary {summary} ($GITHUB_STEP_SUMMARY): ");
        host.Notices[1].Message.ShouldContain("allocated-bytes, tsc: no baseline file");
        File.Exists(temp.Combine("results", "SampleTests.Allocates.result.json")).ShouldBeTrue();
    }

    [Fact]
    public void UnconfirmedTimeRegression_ReportsTheSecondMeasurement_AndSaysItWasMeasuredTwice()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("TimingTests.cs");
        Timed(1.0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");
        PerfResult second = Timed(1.0);
        PerfResult disturbed = Timed(1.5).WithRemeasure(() => second);

        disturbed.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work");

        host.Notices[^1].Message.ShouldStartWith("Not failing on an unconfirmed regression");
        host.Output[^1].ShouldContain("Measured twice: the first measurement regressed (tsc P10 +");
        using JsonDocument json = JsonDocument.Parse(File.ReadAllText(temp.Combine("results", "TimingTests.Work.result.json")));
        json.RootElement.GetProperty("verdict").GetString().ShouldBe("pass");
        json.RootElement.GetProperty("remeasurement").GetString().ShouldNotBeNull().ShouldContain("the second, reported here, did not");
        json.RootElement.GetProperty("counters")[0].GetProperty("perOperation").GetProperty("p50").GetDouble().ShouldBe(second.Tsc.P50);
    }

    [Fact]
    public void ConfirmedTimeRegression_FailsWithThePaths_OfAReportOfTheSecondMeasurement()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("TimingTests.cs");
        Timed(1.0).ShouldNotRegress(options: Local(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Work");
        PerfResult second = Timed(1.4);
        PerfResult slower = Timed(1.5).WithRemeasure(() => second);

        string message = Should.Throw<PerfAssertionException>(() => slower.ShouldNotRegress(options: Local(temp), callerFilePath: source, testMethod: "Work")).Message;

        string json = temp.Combine("results", "TimingTests.Work.result.json");
        message.ShouldContain("Confirmed by a second measurement: tsc P10 +");
        message.ShouldEndWith($"\n\nReport: {json}\nPlot: {temp.Combine("results", "TimingTests.Work.svg")}\n");
        using JsonDocument report = JsonDocument.Parse(File.ReadAllText(json));
        report.RootElement.GetProperty("verdict").GetString().ShouldBe("fail");
        report.RootElement.GetProperty("remeasurement").GetString().ShouldNotBeNull().ShouldContain("the second, reported here, confirmed it");
        report.RootElement.GetProperty("counters")[0].GetProperty("perOperation").GetProperty("p50").GetDouble().ShouldBe(second.Tsc.P50);
    }

    [Fact]
    public void WriteReport_WithoutABaseline_WritesTheFilesAndTheOutput_NamedAfterTheCaller()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        PerfResult result = SyntheticResults.Result(SyntheticResults.Tsc());

        PerfReportFiles files = result.WriteReport(caseName: "n 10", getEnvironmentVariable: TestEnvironment.Local(temp)).ShouldNotBeNull();

        const string Name = "PerfResultReportsTests.WriteReport_WithoutABaseline_WritesTheFilesAndTheOutput_NamedAfterTheCaller";
        files.ShouldBe(new PerfReportFiles(temp.Combine("results", Name + ".n_10.result.json"), temp.Combine("results", Name + ".n_10.svg")));
        File.Exists(files.JsonPath).ShouldBeTrue();
        File.Exists(files.SvgPath).ShouldBeTrue();
        string output = host.Output.ShouldHaveSingleItem();
        output.ShouldStartWith($"#### {Name}(n 10): measured\n");
        output.ShouldContain("tsc: not compared with a baseline\n");
        output.ShouldEndWith($"Report: {files.JsonPath}\nPlot: {files.SvgPath}\n");
        host.Attachments.Select(static a => a.Path).ShouldBe([files.JsonPath, files.SvgPath]);
        host.Notices.ShouldBeEmpty();
    }

    [Fact]
    [Trait("Category", "Console")]
    public void DefaultHost_PrintsOutputToStandardOutput_EndingWithANewLine()
    {
        var writer = new StringWriter();
        TextWriter original = Console.Out;
        lock (ConsoleLock.Instance)
        {
            Console.SetOut(writer);
            try
            {
                PerfAssertionHost.Throwing.ReportOutput("#### T.M: pass");
                PerfAssertionHost.Throwing.ReportOutput("Report: /r.json\n");
                PerfAssertionHost.Throwing.ReportAttachment("/r.json", "Picollo result (JSON)");
            }
            finally
            {
                Console.SetOut(original);
            }
        }

        writer.ToString().ShouldBe("#### T.M: pass\nReport: /r.json\n");
    }

    private static BaselineStoreOptions Local(TempDirectory temp) => new() { GetEnvironmentVariable = TestEnvironment.Local(temp) };

    private static BaselineStoreOptions UnwritableResults(TempDirectory temp, string results)
    {
        Func<string, string?> local = TestEnvironment.Local(temp);
        return new() { GetEnvironmentVariable = name => name == PerfReportWriter.ResultsDirectoryVariable ? results : local(name) };
    }

    private static PerfResult Allocating(ulong bytesPerOperation) => SyntheticResults.Result(
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(bytesPerOperation * 1_000, 100)),
        SyntheticResults.Tsc());

    // The TSC counter of SyntheticResults.Tsc (300 … 399 ticks per operation), scaled: a statistical counter, so a
    // regression of it is measured again before it fails.
    private static PerfResult Timed(double factor) => SyntheticResults.Result(SyntheticResults.Counter(
        "tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => (ulong)((300_000 + (i * 1_000)) * factor)), overheadPerSample: 2_600));
}
