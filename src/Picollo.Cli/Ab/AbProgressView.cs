using System.Globalization;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace Picollo.Cli.Ab;

/// <summary>
/// The table <c>picollo ab</c> keeps on a terminal while it runs: a row per test with its pairs, its time ratio and interval
/// so far and its verdict, and under it the tests decided and an estimate of the time left. Logs (a console that is not
/// interactive) get <see cref="AbProgress.Line"/> instead: a live table redrawn in a CI log is noise.
/// </summary>
internal static class AbProgressView
{
    /// <summary>The table before the first pair.</summary>
    /// <param name="tests">How many tests will run.</param>
    /// <returns>What to show.</returns>
    public static IRenderable Starting(int tests) =>
        new Markup(Markup.Escape(string.Create(CultureInfo.InvariantCulture, $"Starting the first process pair of {tests} test(s)…")));

    /// <summary>The table for a progress report.</summary>
    /// <param name="progress">Where the run stands.</param>
    /// <returns>What to show.</returns>
    public static Table Render(AbProgress progress)
    {
        ArgumentNullException.ThrowIfNull(progress);
        var table = new Table().Border(TableBorder.Rounded)
            .AddColumn("Test").AddColumn(new TableColumn("Pairs").RightAligned()).AddColumn("Time, head / base").AddColumn("Verdict");
        foreach (AbTestResult test in progress.Tests)
        {
            string time = test.Measurements.FirstOrDefault(static m => m.Time is not null)?.Time?.Summary ?? "–";
            table.AddRow(
                new Spectre.Console.Text(test.Test.ShortName),
                new Spectre.Console.Text(test.ProcessPairs.ToString(CultureInfo.InvariantCulture)),
                new Spectre.Console.Text(time),
                new Markup(Verdict(test.Verdict)));
        }

        table.Caption(string.Create(CultureInfo.InvariantCulture,
            $"{progress.Decided}/{progress.Tests.Count} tests decided · {progress.Elapsed.TotalSeconds:0} s · "
            + $"~{progress.SecondsLeft:0} s left"));
        return table;
    }

    private static string Verdict(AbVerdict verdict)
    {
        string word = Markup.Escape(AbRunner.Describe(verdict));
        return verdict switch
        {
            AbVerdict.Regressed or AbVerdict.Failed => $"[red]{word}[/]",
            AbVerdict.Improved => $"[green]{word}[/]",
            AbVerdict.Inconclusive => $"[yellow]{word}[/]",
            _ => word,
        };
    }
}
