using Picollo.Cli;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli;

/// <summary>How <c>picollo accept --test</c> reads a test name (issue 27); the command itself is run in <see cref="PicolloAcceptTests"/>.</summary>
public sealed class TestNameFilterTests
{
    private static readonly string[] s_tests =
    [
        "TokenizerPerf.Tokenize",
        "TokenizerPerf.TokenizeLarge",
        "TokenizerPerf.CountRows.4",
        "TokenizerPerf.CountRows.64",
        "TokenizerPerf.CountRows.1.5",
        "sub/ParserPerf.Tokenize",
        "sub/ParserPerf.Parse",
    ];

    [Theory]
    [InlineData("Tokenize", "TokenizerPerf.Tokenize sub/ParserPerf.Tokenize")]
    [InlineData("tokenize", "TokenizerPerf.Tokenize sub/ParserPerf.Tokenize")]
    [InlineData("TokenizerPerf.Tokenize", "TokenizerPerf.Tokenize")]
    [InlineData("MyLib.PerfTests.TokenizerPerf.Tokenize", "TokenizerPerf.Tokenize")]
    [InlineData("CountRows", "TokenizerPerf.CountRows.4 TokenizerPerf.CountRows.64 TokenizerPerf.CountRows.1.5")]
    [InlineData("CountRows.64", "TokenizerPerf.CountRows.64")]
    [InlineData("TokenizerPerf.CountRows.1.5", "TokenizerPerf.CountRows.1.5")]
    [InlineData("Tokenize*", "TokenizerPerf.Tokenize TokenizerPerf.TokenizeLarge sub/ParserPerf.Tokenize")]
    [InlineData("TokenizerPerf.*", "TokenizerPerf.Tokenize TokenizerPerf.TokenizeLarge TokenizerPerf.CountRows.4 TokenizerPerf.CountRows.64 TokenizerPerf.CountRows.1.5")]
    [InlineData("*Perf.Parse", "sub/ParserPerf.Parse")]
    [InlineData("CountRows.?", "TokenizerPerf.CountRows.4")]
    [InlineData("sub/ParserPerf.Parse", "sub/ParserPerf.Parse")]
    [InlineData("TokenizerPerf", "TokenizerPerf.Tokenize TokenizerPerf.TokenizeLarge TokenizerPerf.CountRows.4 TokenizerPerf.CountRows.64 TokenizerPerf.CountRows.1.5")]
    [InlineData("TokenizerPerf?", "")]
    [InlineData("Tokenizer", "")]
    [InlineData("Token", "")]
    [InlineData("Rows", "")]
    public void AName_MatchesTheMethod_ClassMethod_AFullyQualifiedName_OrAPatternWithinOnePart(string name, string expected)
    {
        var filter = new TestNameFilter(name);

        string.Join(' ', s_tests.Where(filter.Matches)).ShouldBe(expected);
    }

    [Fact]
    public void Nearest_NamesTheClosestClassMethodNames()
    {
        new TestNameFilter("Tokenise").Nearest(s_tests).Take(2).ShouldBe(["ParserPerf.Tokenize", "TokenizerPerf.Tokenize"], "one letter from the method Tokenize");
        new TestNameFilter("TokenizerPerf.CountRow").Nearest(s_tests)[0].ShouldBe("TokenizerPerf.CountRows");
    }
}
