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
        WriteResult("head", "Parser.Parse", Tsc(600_000), Allocations(88));
        WriteResult("base", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Lexer.Lex", Tsc(100_000), Allocations(0));
        WriteResult("head", "Emitter.Emit", Tsc(100_000), Allocations(0));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(1, run.Output);
        string[] lines = run.Output.Split('\n');
        lines[0].ShouldBe("### Picollo: 1 regression(s)");
        // The floor (P10) per operation: about 300 ticks in the base run, about 600 in the head run.
        string row = lines.First(static l => l.StartsWith("| Parser", StringComparison.Ordinal));
        row.ShouldStartWith("| Parser.Parse | tsc | **regressed** | 300.");
        row.ShouldContain("| 600.");
        run.Output.ShouldContain("| Lexer.Lex | tsc | pass |");
        run.Output.ShouldContain("| Parser.Parse | allocated-bytes | pass | 88 | 88 | 0.0% |");
        run.Output.ShouldContain("| Emitter.Emit |  | new |");
    }

    [Fact]
    public void Json_HasOneRowPerCounter_AndNoRegressionExitsZero()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(240_000), Allocations(88));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "json");

        run.ExitCode.ShouldBe(0, run.Output);
        using JsonDocument json = JsonDocument.Parse(run.Output);
        JsonElement tsc = json.RootElement.EnumerateArray().Single(static r => r.GetProperty("counter").GetString() == "tsc");
        tsc.GetProperty("status").GetString().ShouldBe("improved");
        tsc.GetProperty("change").GetDouble().ShouldBe(-0.2, tolerance: 0.01);
    }

    [Fact]
    public void Html_IsOneSelfContainedPage_WithTheTableAndTheHeadRunsPlots()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        WriteResult("head", "Parser.Parse", Tsc(600_000), Allocations(88));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head", "--format", "html");

        run.ExitCode.ShouldBe(1, run.Output);
        run.Output.ShouldStartWith("<!DOCTYPE html>");
        run.Output.ShouldContain("<h1>Picollo: 1 regression(s)</h1>");
        run.Output.ShouldContain("<td class=\"fail\">regressed</td>");
        run.Output.ShouldContain("<h2>Parser.Parse (head)</h2>\n<svg");
        run.Output.ShouldNotContain("<script");
    }

    [Fact]
    public void ACorruptResultFile_IsNamed_AndNothingIsCompared()
    {
        WriteResult("base", "Parser.Parse", Tsc(300_000), Allocations(88));
        Directory.CreateDirectory(_dir.Combine("head"));
        string corrupt = _dir.Combine("head", "Parser.Parse.result.json");
        File.WriteAllText(corrupt, "{ \"test\": ");

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "head");

        run.ExitCode.ShouldBe(1);
        run.Output.ShouldContain($"Not read: {corrupt}: not a Picollo result file:");
        run.Output.ShouldNotContain("| Parser.Parse");

        PicolloTool.Run missing = PicolloTool.Invoke(_dir.Path, null, "compare", "base", "nowhere");
        missing.ExitCode.ShouldBe(1);
        missing.Output.ShouldContain("No folder ");
    }

    // 100 samples of 1,000 operations around the given per-sample total, as SyntheticResults builds them.
    private static CounterResult Tsc(ulong perSample) =>
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => perSample + (ulong)(i * 100)));

    private static CounterResult Allocations(ulong perOperation) =>
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(perOperation * 1_000, 100));

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
