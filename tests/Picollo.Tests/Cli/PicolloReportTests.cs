using System.Text.RegularExpressions;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;
using Picollo.Tests.Assertions;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli;

/// <summary><c>picollo report</c>: one run's results as one self-contained page (issue 14).</summary>
public sealed partial class PicolloReportTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Page_ListsEveryTest_InlinesItsPlot_AndFetchesNothing()
    {
        Directory.CreateDirectory(_dir.Combine("results"));
        foreach ((string test, string stem, ulong perSample) in new[] { ("Parser.Parse", "Parser.Parse", 300_000UL), ("Lexer.Lex <fast>", "Lexer.Lex.fast", 100_000UL) })
        {
            var report = new PerfReport(test, SyntheticResults.Result(SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => perSample + (ulong)(i * 100)))));
            string file = _dir.Combine("results", stem);
            File.WriteAllText(file + ".result.json", report.ToJson());
            File.WriteAllText(file + ".svg", report.ToSvg());
        }

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "report", "results", "--html", "page.html");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain("page.html: 2 test(s).");
        string html = File.ReadAllText(_dir.Combine("page.html"));
        html.ShouldStartWith("<!DOCTYPE html>");
        html.ShouldContain("Picollo results: 2 test(s)");
        html.ShouldContain("Lexer.Lex &lt;fast&gt;", customMessage: "test names are HTML-encoded");
        Regex.Count(html, "<svg").ShouldBe(2, "each test's plot is inlined");
        // Self-contained: no script, no stylesheet or image fetched; the only URL is the SVG namespace.
        html.ShouldNotContain("<script");
        html.ShouldNotContain("<link");
        Url().Matches(html).Select(static m => m.Value).Distinct().ShouldBe(["http://www.w3.org/2000/svg"]);
    }

    [Fact]
    public void AFolderWithoutResults_WritesNothing_AndSaysSo()
    {
        Directory.CreateDirectory(_dir.Combine("empty"));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "report", "empty", "--html", "page.html");

        run.ExitCode.ShouldBe(2, "a run that wrote no results is not a page of nothing (issue 27)");
        run.StandardOutput.ShouldBeEmpty();
        run.StandardError.ShouldContain("nothing to report, nothing written");
        File.Exists(_dir.Combine("page.html")).ShouldBeFalse();

        File.WriteAllText(_dir.Combine("empty", "Broken.result.json"), "{ \"test\": ");
        PicolloTool.Run corrupt = PicolloTool.Invoke(_dir.Path, null, "report", "empty", "--html", "page.html");
        corrupt.ExitCode.ShouldBe(2);
        corrupt.StandardOutput.ShouldBeEmpty();
        corrupt.StandardError.ShouldContain($"Not read: {_dir.Combine("empty", "Broken.result.json")}: not a Picollo result file:");
        corrupt.StandardError.ShouldContain("Nothing was written");
        File.Exists(_dir.Combine("page.html")).ShouldBeFalse();
    }

    [GeneratedRegex(@"https?://[^""'\s)<>]+")]
    private static partial Regex Url();
}
