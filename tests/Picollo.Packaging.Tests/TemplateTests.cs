using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// A project created from each template, restored from the local feed and run with plain <c>dotnet test</c> in Release:
/// what a user sees (issue 13). The projects are built beside the other tests (<see cref="TemplateBuilds"/>), the runs come
/// after them, one at a time (<see cref="TemplateRunsGroup"/>). Debug is <see cref="TemplateDebugTests"/>: it measures
/// nothing, so it runs with the other tests.
/// </summary>
public abstract class TemplateTests(PackageFeed feed, string template, string framework)
{
    [Fact]
    public async Task Release_PassesFailsSkipsRecordsAndReports()
    {
        (string project, DotNet.Run build) = await TemplateBuilds.Of(feed, template);
        TestContext.Current.TestOutputHelper?.WriteLine($"{build.Command}: exit code {build.ExitCode} (started when the feed was ready)");
        build.ShouldSucceed();
        build.Output.ShouldNotContain("PICOLLO00", customMessage: "a Release build of a template project has nothing to warn about");

        // Plain dotnet test, as a user runs it after building: the build is up to date.
        (DotNet.Run run, IReadOnlyList<TrxResult> results) = await feed.TestAsync(project, "Release");

        run.ExitCode.ShouldNotBe(0, "one test breaks its budget");
        run.Output.ShouldNotContain("PICOLLO00", customMessage: "a Release build of a template project has nothing to warn about");

        // The template's two tests pass: the body style records its first baseline beside the test, with a notice.
        Result(results, "Checksum").Outcome.ShouldBe("Passed", run.Output);
        Result(results, "ChecksumOfASmallBuffer").Outcome.ShouldBe("Passed", run.Output);
        File.Exists(Path.Combine(project, "ChecksumPerf.Checksum.received.perf.json")).ShouldBeTrue(run.Output);
        File.Exists(Path.Combine(project, "ChecksumPerf.ChecksumOfASmallBuffer.received.perf.json")).ShouldBeTrue(run.Output);

        // The broken budget fails with the budget and the measured value.
        TrxResult allocates = Result(results, "Allocates");
        allocates.Outcome.ShouldBe("Failed", run.Output);
        allocates.Message.ShouldContain("MoreChecks.Allocates ZeroBudget allocated-bytes");
        allocates.Message.ShouldContain("should have P100 at most\n0 bytes per operation\n    but was\n88 bytes per operation");

        // A test on a hardware counter alone: skipped with the reason where the machine cannot count it.
        TrxResult cycles = Result(results, "OnlyCycles");
        if (TemplateProjects.HasPmu.Value)
        {
            cycles.Outcome.ShouldBe("Passed", run.Output);
        }
        else
        {
            cycles.Outcome.ShouldBe("NotExecuted", run.Output);
            run.Output.ShouldContain("No assertion could run on this machine: MoreChecks.OnlyCycles MaxP99 cycles.ShouldHaveP99AtMost(1,000,000,000): cycles is unavailable", customMessage: run.Output);

            // The machine lacks the PMU for every test of the run: one line, said by one test, not the remedy paragraph in
            // each; the result files and picollo doctor keep the paragraph.
            results.Count(static r => r.Output.Contains("Not counted on this machine: cycles, instructions, branch-misses, cache-misses (no hardware PMU)", StringComparison.Ordinal))
                .ShouldBe(1, run.Output);
            results.Where(static r => !r.Name.Contains("OnlyCycles", StringComparison.Ordinal))
                .ShouldAllBe(static r => !r.Output.Contains("enable the vPMU", StringComparison.Ordinal), run.Output);
        }

        // The report is on the console: the run line and the summary table of the measured body.
        run.Output.ShouldContain("#### ChecksumPerf.Checksum: ", customMessage: run.Output);
        run.Output.ShouldContain("##### tsc (ticks per operation", customMessage: run.Output);
        run.Output.ShouldContain($"Received: {Path.Combine(project, "ChecksumPerf.Checksum.received.perf.json")}. To accept, rename it to ChecksumPerf.Checksum.perf.json", customMessage: run.Output);

        // The JSON result and the plot land in the project's TestResults/picollo, not the build output the test host runs
        // in, and the output names them (issue 27).
        string reports = Path.Combine(project, "TestResults", "picollo");
        string report = Path.Combine(reports, "ChecksumPerf.Checksum.result.json");
        File.Exists(report).ShouldBeTrue(run.Output);
        File.Exists(Path.Combine(reports, "ChecksumPerf.Checksum.svg")).ShouldBeTrue(run.Output);
        run.Output.ShouldContain($"Report: {report}", customMessage: run.Output);
        Directory.Exists(Path.Combine(project, "bin", "Release", "net10.0", "TestResults")).ShouldBeFalse("nothing is written under the build output");

        // At detailed verbosity the report is in the console once as the test's output (VSTest's "Standard Output
        // Messages") and once more as the adapter's echo: xunit's runner reporter prints a passing test's whole output when
        // the test has warnings (here: no baseline yet) and has no setting to leave the output out; NUnit3TestAdapter
        // sends every test's output as messages too. Picollo keeps its notices as xunit warnings anyway, because only
        // warnings reach the default verbosity: the trade-off in docs/TESTING.md ("Output") and docs/TROUBLESHOOTING.md
        // (issue 27). Picollo itself writes the report once.
        string[] reportHeaders = [.. run.Output.Split('\n').Where(static l => l.Contains("#### ChecksumPerf.Checksum: ", StringComparison.Ordinal))];
        reportHeaders.Length.ShouldBe(2, run.Output);
        if (framework == "Xunit")
            reportHeaders.Count(static l => l.StartsWith("[xUnit.net ", StringComparison.Ordinal)).ShouldBe(1, run.Output);

        // Recording as a user does: the test's own process and three fresh processes of the test assembly, each running
        // only this test through the framework's runner (xunit: its -id; NUnit: the adapter's startup hook). xunit's run is
        // at the default (minimal) verbosity, as a user's plain dotnet test: its warnings alone reach the console (here the
        // baseline it updated), not the report; the recording's notice is in the test's output (the results file's).
        // The fresh processes 1 s apart (PICOLLO_RECORDING_SPACING, docs/TROUBLESHOOTING.md: where a recording's wall time
        // matters more than its spread): this checks that the packaged recording runs, not the spread it finds (issue 24,
        // "Suite under 5 minutes": NUnit's recording 22.8 -> 15.4 s, xunit's 22.4 -> 20.5 s, one run each). It was tried
        // once before, when the recordings ran beside the other packaging tests' builds: more fresh processes were left out
        // then (the host's branchy reference ran slow in 5 of 6) and each recording went to its cap of 7. Alone, as now,
        // each ran 4 in that run.
        var update = new Dictionary<string, string> { ["PICOLLO_UPDATE_BASELINES"] = "1", ["PICOLLO_RECORDING_SPACING"] = "1" };
        string[] checksumOnly = ["--no-build", "--filter", "FullyQualifiedName=Acme.PerfTests.ChecksumPerf.Checksum"];
        (DotNet.Run recorded, IReadOnlyList<TrxResult> recordedResults) = framework == "Xunit"
            ? await feed.TestAtDefaultVerbosityAsync(project, "Release", update, checksumOnly)
            : await feed.TestAsync(project, "Release", update, checksumOnly);
        TrxResult recording = Result(recordedResults, "Checksum");
        recording.Outcome.ShouldBe("Passed", recorded.Output);
        if (framework == "Xunit")
        {
            recorded.Output.ShouldContain($"Baseline updated: {Path.Combine(project, "ChecksumPerf.Checksum.perf.json")}", customMessage: recorded.Output);
            recorded.Output.ShouldNotContain("#### ChecksumPerf.Checksum", customMessage: recorded.Output);
        }

        // A recording none of whose measurements ran the body's final code writes no time (issue 24): beside the suite's
        // builds an NUnit host once kept compiling through all six. That is the documented outcome, said in its notice.
        if (recording.Output.Contains("The baseline entry holds no tsc", StringComparison.Ordinal))
        {
            recording.Output.ShouldContain("no measurement of the recording ran the body's final code", customMessage: recording.Output);
            Assert.Skip("Not checked how many fresh processes the recording joined and that the baseline file stores that count: none of "
                + "the recording's measurements ran the body's final code (the machine's other builds kept the JIT busy), so its entry holds "
                + "no time; the notice saying so was checked.");
        }

        // A fresh process can be left out (measured while the host ran branchy code in another state, or beside a busy
        // machine), and the count the output says is the count the file stores. Where fewer than two processes join (a busy
        // machine), or the body showed levels, the recording measures up to three more (issue 24): 4 to 7 processes.
        System.Text.RegularExpressions.Match across = System.Text.RegularExpressions.Regex.Match(
            recording.Output, @"Recorded across (?:(?<joined>[1-7]) of )?(?<total>[4-7]) processes \(this one and (?<fresh>[3-6]) fresh, 2 measurements each\): ");
        across.Success.ShouldBeTrue(recording.Output);
        int.Parse(across.Groups["fresh"].Value, System.Globalization.CultureInfo.InvariantCulture)
            .ShouldBe(int.Parse(across.Groups["total"].Value, System.Globalization.CultureInfo.InvariantCulture) - 1, recording.Output);
        TestContext.Current.TestOutputHelper?.WriteLine(across.Value + recording.Output[(across.Index + across.Length)..].Split('\n')[0]);
        int joined = int.Parse(across.Groups[across.Groups["joined"].Success ? "joined" : "total"].Value, System.Globalization.CultureInfo.InvariantCulture);
        string baseline = await File.ReadAllTextAsync(Path.Combine(project, "ChecksumPerf.Checksum.perf.json"), TestContext.Current.CancellationToken);
        if (joined > 1 || baseline.Contains("\"processes\"", StringComparison.Ordinal))
            baseline.ShouldContain($"\"processes\": {joined},", customMessage: recording.Output);
    }

    private static TrxResult Result(IReadOnlyList<TrxResult> results, string method) =>
        results.SingleOrDefault(r => r.Name == method || r.Name.EndsWith("." + method, StringComparison.Ordinal))
        ?? throw new ShouldAssertException($"No result for {method} among: {string.Join(", ", results.Select(static r => $"{r.Name} ({r.Outcome})"))}");
}

/// <summary>The <c>picollo-xunit</c> template.</summary>
[Collection(TemplateRunsGroup.Name)]
public sealed class XunitTemplateTests(PackageFeed feed) : TemplateTests(feed, "picollo-xunit", "Xunit");

/// <summary>The <c>picollo-nunit</c> template: its tests are all Picollo's attributes, so it also proves the nunit.framework reference the package adds.</summary>
[Collection(TemplateRunsGroup.Name)]
public sealed class NUnitTemplateTests(PackageFeed feed) : TemplateTests(feed, "picollo-nunit", "NUnit");
