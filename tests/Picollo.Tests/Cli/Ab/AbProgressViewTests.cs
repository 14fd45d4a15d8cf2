using Picollo.Cli.Ab;
using Shouldly;
using Spectre.Console;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The live table picollo ab keeps on a terminal (issue 26): a row per test with its pairs, time so far and verdict, the
/// tests decided and the time left under it; rendered through Spectre as a terminal would show it.
/// </summary>
public sealed class AbProgressViewTests
{
    [Fact]
    public void TheTable_HasARowPerTest_WithPairsTimeAndVerdict_AndSaysWhatIsLeft()
    {
        AbTestResult slower = Result("Count", AbVerdict.Regressed, 4, new AbTimeEstimate("tsc", [1.10, 1.12, 1.09, 1.11], 1.105, 1.081, 1.130, 0.99, 4.1));
        AbTestResult undecided = Result("Chain", AbVerdict.Inconclusive, 3, new AbTimeEstimate("tsc", [1.00, 1.04, 0.98], 1.006, 0.95, 1.07, 0.99, 0.2));
        AbTestResult fresh = Result("Allocates", AbVerdict.NotJudged, 0, null);
        var progress = new AbProgress("line", [slower, undecided, fresh], 1, TimeSpan.FromSeconds(31), 24.4);

        string screen = Render(progress);

        screen.ShouldContain("WordsPerf.Count");
        screen.ShouldMatch(@"WordsPerf\.Count\s*│\s*4\s*│\s*tsc ×1\.105 \(1\.081–1\.130\)\s*│\s*regressed");
        screen.ShouldMatch(@"WordsPerf\.Chain\s*│\s*3\s*│\s*tsc ×1\.006 \(0\.950–1\.070\)\s*│\s*inconclusive");
        screen.ShouldMatch(@"WordsPerf\.Allocates\s*│\s*0\s*│\s*–\s*│\s*not judged");
        screen.ShouldContain("1/3 tests decided · 31 s · ~24 s left");
    }

    [Fact]
    public void BeforeTheFirstPair_ItSaysHowManyTestsWillRun()
    {
        var writer = new StringWriter();
        IAnsiConsole console = Console(writer);

        console.Write(AbProgressView.Starting(3));

        writer.ToString().ShouldContain("Starting the first process pair of 3 test(s)");
    }

    private static AbTestResult Result(string method, AbVerdict verdict, int pairs, AbTimeEstimate? time) =>
        new(new AbTest($"Acme.WordsPerf.{method}", "Acme.WordsPerf", method), "tests/Acme.PerfTests/Acme.PerfTests.csproj", verdict,
            time is null ? [] : [new AbMeasurement("WordsPerf." + method, verdict, time, [])], pairs, []);

    private static string Render(AbProgress progress)
    {
        var writer = new StringWriter();
        Console(writer).Write(AbProgressView.Render(progress));
        return writer.ToString();
    }

    private static IAnsiConsole Console(StringWriter writer)
    {
        IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Out = new AnsiConsoleOutput(writer),
            Interactive = InteractionSupport.No,
        });
        console.Profile.Width = 160;
        return console;
    }
}
