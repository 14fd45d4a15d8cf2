using Spectre.Console;

namespace Picollo.Cli;

/// <summary>The consoles picollo writes to: the report on standard output, errors and warnings on standard error.</summary>
internal static class Terminal
{
    /// <summary>Standard output: what a command reports (the table, the JSON, the page), and nothing else.</summary>
    public static IAnsiConsole Output() => Create(Console.Out, Console.IsOutputRedirected);

    /// <summary>
    /// Standard error: every error and warning, so <c>picollo compare base head &gt; comparison.md</c> never posts one as the
    /// report.
    /// </summary>
    public static IAnsiConsole Errors() => Create(Console.Error, Console.IsErrorRedirected);

    /// <summary>
    /// A console on <paramref name="writer"/> through Spectre.Console: colours and the terminal's width on a terminal; plain
    /// text, 200 columns wide when redirected (a CI log, a pipe, a test), so reasons are not wrapped at 80.
    /// </summary>
    private static IAnsiConsole Create(TextWriter writer, bool redirected)
    {
        IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
            Out = new AnsiConsoleOutput(writer),
            Interactive = redirected ? InteractionSupport.No : InteractionSupport.Detect,
        });
        if (redirected)
            console.Profile.Width = 200;
        return console;
    }
}
