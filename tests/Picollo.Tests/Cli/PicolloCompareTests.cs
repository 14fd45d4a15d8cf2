using System.Text.Json;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;
using Picollo.Tests.Assertions;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli;

/// <summary><c>picollo compare</c> on two result folders written by the library's own report (issue 14).</summary>
public sealed class PicolloCompareTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void ARegression_IsAMarkdownRowOnTop_AndExitCode1()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(700_000), Allocations(88));
        WriteResult("base", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Emitter.Emit", Tsc(100_000), Allocations(0));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(1, run.Output);
        run.StandardError.ShouldBeEmpty();
        string[] lines = run.StandardOutput.Split('\n');
        lines[0].ShouldBe("### Picollo: 1 regression(s)");
        // The floor (P10) per operation: about 300 ticks in the base run, about 700 in the head run: more than twice as slow,
        // which no process's speed level explains.
        string row = lines.First(static l => l.StartsWith("| Parser", StringComparison.Ordinal));
        row.ShouldStartWith("| Parser.Parse | tsc | **regressed** | 300.");
        row.ShouldContain("| 700.");
        run.Output.ShouldContain("| Lexer.Lex | tsc | pass |");
        run.Output.ShouldContain("| Parser.Parse | allocated-bytes | pass | 88 | 88 | 0.0% |");
        run.Output.ShouldContain("| Emitter.Emit |  | new |");
    }

    [Fact]
    public void ATimeSlowerByLessThanTwice_IsUnconfirmed_SaidWithWhatToDo_AndExitsZero()
    {
        // Two runs of unchanged code are two processes at their own speed levels: a 19-tick body read +35 % between them.
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(405_000), Allocations(88));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardOutput.ShouldStartWith("### Picollo: no regression");
        run.StandardOutput.ShouldContain("| Parser.Parse | tsc | unconfirmed | 300.");
        run.StandardOutput.ShouldMatch(@"\n- Parser\.Parse: tsc P10 \+3\d\.\d% \(300\.\d → 405\.\d ticks/op\), [^\n]*: slower in the head run, unconfirmed: ", run.StandardOutput);
        run.StandardOutput.ShouldContain("unconfirmed: the two runs are two processes, and a process's speed level alone can move time this much; compare calls time regressed from 2× slower. Measure both builds in pairs to decide (picollo ab)");

        PicolloTool.Run json = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "json");
        json.ExitCode.ShouldBe(0, json.Output);
        json.StandardOutput.ShouldContain("\"status\": \"unconfirmed\"");

        // An exact counter is not a level: one more allocation is a regression whatever the processes.
        WriteResult("head", "Parser.Parse", Tsc(405_000), Allocations(96));
        PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head").ExitCode.ShouldBe(1);
    }

    [Fact]
    public void Json_HasOneRowPerCounter_AndNoRegressionExitsZero()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(240_000), Allocations(88));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "json");

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardError.ShouldBeEmpty();
        using JsonDocument json = JsonDocument.Parse(run.StandardOutput);
        JsonElement tsc = json.RootElement.EnumerateArray().Single(static r => r.GetProperty("counter").GetString() == "tsc");
        tsc.GetProperty("status").GetString().ShouldBe("improved");
        tsc.GetProperty("change").GetDouble().ShouldBe(-0.2, tolerance: 0.01);
    }

    [Fact]
    public void Html_IsOneSelfContainedPage_WithTheTableAndTheHeadRunsPlots()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(700_000), Allocations(88));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "html");

        run.ExitCode.ShouldBe(1, run.Output);
        run.Output.ShouldStartWith("<!DOCTYPE html>");
        run.Output.ShouldContain("<h1>Picollo: 1 regression(s)</h1>");
        run.Output.ShouldContain("<td class=\"fail\">regressed</td>");
        run.Output.ShouldContain("<h2>Parser.Parse (head)</h2>\n<svg");
        run.Output.ShouldNotContain("<script");
    }

    [Fact]
    public void ACorruptResultFile_IsNamedOnStandardError_AndSkipped_AndTheOthersAreStillCompared()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("base", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Lexer.Lex", Tsc(100_000), Allocations(0));
        string corrupt = _dir.Combine("head", "Parser.Parse.result.json");
        File.WriteAllText(corrupt, "{ \"test\": ");

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        // `picollo compare base head > comparison.md` posts standard output: the table, and no error in it.
        run.ExitCode.ShouldBe(2, "a test was left unjudged: the run cannot pass (issue 27)");
        run.StandardOutput.ShouldStartWith("### Picollo: no regression");
        run.StandardOutput.ShouldContain("| Lexer.Lex | tsc | pass |");
        run.StandardOutput.ShouldContain("| Parser.Parse |  | not compared |", customMessage: "not 'removed': its head file exists but could not be read");
        run.StandardOutput.ShouldNotContain(corrupt);
        run.StandardError.ShouldStartWith($"picollo compare: skipped {corrupt}: not a Picollo result file: ");
        run.StandardError.ShouldContain("Parser.Parse is not compared; run its perf test again in the head run to rewrite the file, or remove the file.");

        // A regression among the files that were read is still exit code 1, with the skipped file named.
        WriteResult("base", "Emitter.Emit", Tsc(100_000), Allocations(88));
        WriteResult("head", "Emitter.Emit", Tsc(100_000), Allocations(176));
        PicolloTool.Run regressed = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");
        regressed.ExitCode.ShouldBe(1, regressed.Output);
        regressed.StandardOutput.ShouldContain("| Emitter.Emit | allocated-bytes | **regressed** | 88 | 176 |");
        regressed.StandardError.ShouldContain($"skipped {corrupt}");
    }

    [Theory]
    [InlineData("{ \"tool\": \"another\", \"version\": 3 }", "it has no \"test\" (the test's name)")]
    [InlineData("{ \"test\": \"Parser.Parse\", \"verdict\": \"pass\", \"notes\": [] }", "it has no \"counters\"")]
    [InlineData("{ \"test\": \"Parser.Parse\", \"verdict\": \"pass\", \"notes\": [], \"counters\": [ { \"kind\": 0 } ] }", "it has no counter name or unit in \"counters\"[0]")]
    [InlineData("[ 1, 2 ]", "The JSON value could not be converted")]
    public void AJsonFileThatIsNotAResult_IsNamedAndSkipped_NeverAStackTrace(string json, string reason)
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        string foreign = _dir.Combine("head", "Parser.Parse.result.json");
        Directory.CreateDirectory(_dir.Combine("head"));
        File.WriteAllText(foreign, json);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo compare: skipped {foreign}: not a Picollo result file: ");
        run.StandardError.ShouldContain(reason);
        run.Output.ShouldNotContain("Exception");
        run.Output.ShouldNotContain("   at ");

        // Beside a readable head result the comparison goes on; nothing regressed, but a file was skipped: exit 2.
        WriteResult("base", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Lexer.Lex", Tsc(100_000), Allocations(0));
        PicolloTool.Run beside = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");
        beside.ExitCode.ShouldBe(2, beside.Output);
        beside.StandardOutput.ShouldContain("| Lexer.Lex | tsc | pass |");
        beside.StandardError.ShouldContain($"skipped {foreign}");

        PicolloTool.Run report = PicolloTool.Invoke(_dir.Path, null, "report", "head", "--html", "page.html");
        report.ExitCode.ShouldBe(2, report.Output);
        report.Output.ShouldContain($"Not read: {foreign}: not a Picollo result file:");
        report.Output.ShouldNotContain("   at ");
    }

    [Fact]
    public void AMissingOrEmptyHead_IsExitCode2_WithTheFolderAndWhatToDo_OnStandardError()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        Directory.CreateDirectory(_dir.Combine("empty"));

        PicolloTool.Run empty = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "empty");
        empty.ExitCode.ShouldBe(2, "a run that produced no results must not pass");
        empty.StandardOutput.ShouldBeEmpty();
        empty.StandardError.ShouldBe($"picollo compare: No result file (*.result.json) under the head folder {_dir.Combine("empty")}: the head run wrote no results, so nothing can be judged. Run the perf tests first (they write to the test project's TestResults/picollo, or to PICOLLO_RESULTS_DIR) and give that folder.\n");

        PicolloTool.Run missing = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "nowhere");
        missing.ExitCode.ShouldBe(2);
        missing.StandardOutput.ShouldBeEmpty();
        missing.StandardError.ShouldStartWith($"picollo compare: The head folder {_dir.Combine("nowhere")} does not exist: give the folder the head run's perf tests wrote their results to");

        PicolloTool.Run missingBase = PicolloTool.Invoke(_dir.Path, null, "compare", "nowhere", "base");
        missingBase.ExitCode.ShouldBe(2);
        missingBase.StandardError.ShouldStartWith($"picollo compare: The base folder {_dir.Combine("nowhere")} does not exist");
    }

    [Fact]
    public void AnEmptyBase_WritesTheTableOfNewTests_ButJudgesNothing_ExitCode2()
    {
        WriteResult("head", "Parser.Parse", Tsc(300_000), Allocations(88));
        Directory.CreateDirectory(_dir.Combine("empty"));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "empty", "head");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardOutput.ShouldContain("| Parser.Parse |  | new |");
        run.StandardError.ShouldStartWith($"picollo compare: No result file (*.result.json) under the base folder {_dir.Combine("empty")}: every head test is new and nothing was judged.");
    }

    [Fact]
    public void UsageErrors_AreExitCode2_OnStandardError_NotTheRegressionCode()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(300_000), Allocations(88));

        PicolloTool.Run format = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "csv");
        format.ExitCode.ShouldBe(2);
        format.StandardOutput.ShouldBeEmpty();
        format.StandardError.ShouldBe("picollo compare: --format csv is not a format compare writes: use markdown (a pull-request comment), json or html.\n");

        PicolloTool.Run argument = PicolloTool.Invoke(_dir.Path, null, "compare", "base");
        argument.ExitCode.ShouldBe(2, "System.CommandLine's own parse-error code is 1, the regression code");
        argument.StandardOutput.ShouldBeEmpty();
        argument.StandardError.ShouldContain("picollo: Required argument missing for command: 'compare'.");
        argument.StandardError.ShouldContain("Run 'picollo compare --help' for the arguments and options.");

        PicolloTool.Run option = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--no-such-option");
        option.ExitCode.ShouldBe(2);
        option.StandardError.ShouldContain("'--no-such-option'");
    }

    [Fact]
    public void ExactCounters_ShowTheRunsExactValues_AndABaseOfZeroHasNoPercentage()
    {
        // 12,464 bytes per operation in samples of 1,000 operations: the histogram's bucket of 12,464,000 is not that value,
        // and a comparison read from the buckets showed 12,462.08 (issue 27).
        CounterResult allocations = Allocations(12_464);
        (allocations.Histogram.GetSummary().P50.Value / 1_000.0).ShouldNotBe(12_464.0, "the histogram alone cannot give the exact value");
        WriteResult("base", "TokenizerPerf.Tokenize", Tsc(300_000), allocations, Gen0(21), JitMethods());
        WriteResult("head", "TokenizerPerf.Tokenize", Tsc(300_000), Allocations(12_464), Gen0(25), JitMethods());
        WriteResult("base", "TokenizerPerf.Count", Tsc(100_000), Allocations(0));
        WriteResult("head", "TokenizerPerf.Count", Tsc(100_000), Allocations(24));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(1, run.Output);
        run.StandardOutput.ShouldContain("| TokenizerPerf.Tokenize | allocated-bytes | pass | 12,464 | 12,464 | 0.0% |");
        // 21 and 25 collections in 100,000 operations: not "0 | 0 | +19.0%".
        run.StandardOutput.ShouldContain("| TokenizerPerf.Tokenize | gen0-collections | pass | 2.1E-4 | 2.5E-4 | +19.0% |");
        run.StandardOutput.ShouldContain("| TokenizerPerf.Tokenize | jit-methods | pass | 0 | 0 | — |");
        run.StandardOutput.ShouldContain("| TokenizerPerf.Count | allocated-bytes | **regressed** | 0 | 24 | from 0 |");
        run.StandardError.ShouldBeEmpty();

        PicolloTool.Run json = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "json");
        json.ExitCode.ShouldBe(1, json.Output);
        json.StandardError.ShouldBeEmpty("a change from 0 is infinite, which JSON cannot hold: it is null");
        using JsonDocument rows = JsonDocument.Parse(json.StandardOutput);
        JsonElement bytes = rows.RootElement.EnumerateArray().Single(static r => r.GetProperty("test").GetString() == "TokenizerPerf.Tokenize" && r.GetProperty("counter").GetString() == "allocated-bytes");
        bytes.GetProperty("base").GetDouble().ShouldBe(12_464);
        bytes.GetProperty("head").GetDouble().ShouldBe(12_464);
        bytes.GetProperty("exact").GetBoolean().ShouldBeTrue();
        bytes.GetProperty("text").GetString().ShouldBe("allocated-bytes P50 0.0% (12,464 → 12,464 bytes/op): pass (exact)");
        JsonElement fromZero = rows.RootElement.EnumerateArray().Single(static r => r.GetProperty("test").GetString() == "TokenizerPerf.Count" && r.GetProperty("counter").GetString() == "allocated-bytes");
        fromZero.GetProperty("change").ValueKind.ShouldBe(JsonValueKind.Null);

        PicolloTool.Run html = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "html");
        html.StandardOutput.ShouldContain("<td class=\"n\">12,464</td><td class=\"n\">12,464</td><td class=\"n\">0.0%</td>");
        html.StandardOutput.ShouldContain("<td class=\"n\">0</td><td class=\"n\">24</td><td class=\"n\">from 0</td>");
    }

    // 100 samples of 1,000 operations around the given per-sample total, as SyntheticResults builds them.
    private static CounterResult Tsc(ulong perSample) =>
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => perSample + (ulong)(i * 100)));

    private static CounterResult Allocations(ulong perOperation) =>
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(perOperation * 1_000, 100));

    // A collection in the first `collections` of 100 samples of 1,000 operations.
    private static CounterResult Gen0(int collections) =>
        SyntheticResults.Counter("gen0-collections", "collections", CounterKind.Runtime, 1_000, Enumerable.Range(0, 100).Select(i => i < collections ? 1UL : 0UL));

    private static CounterResult JitMethods() =>
        SyntheticResults.Counter("jit-methods", "methods", CounterKind.Runtime, 1_000, Enumerable.Repeat(0UL, 100));

    private void WriteResult(string folder, string test, params CounterResult[] counters)
    {
        string dir = _dir.Combine(folder);
        Directory.CreateDirectory(dir);
        PerfResult result = SyntheticResults.Result(counters);
        var report = new PerfReport(test, result);
        File.WriteAllText(Path.Combine(dir, test + ".result.json"), report.ToJson());
        File.WriteAllText(Path.Combine(dir, test + ".svg"), report.ToSvg());
    }
}
