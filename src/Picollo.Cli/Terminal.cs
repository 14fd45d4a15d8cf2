using Spectre.Console;

namespace Picollo.Cli;

/// <summary>The console picollo writes to.</summary>
internal static class Terminal
{
    /// <summary>
    /// Standard output through Spectre.Console: colours and the terminal's width on a terminal; plain text, 200 columns wide
    /// when redirected (a CI log, a pipe, a test), so reasons are not wrapped at 80.
    /// </summary>
    public static IAnsiConsole Create()
    {
        bool redirected = Console.IsOutputRedirected;
        IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
            Out = new AnsiConsoleOutput(Console.Out),
            Interactive = redirected ? InteractionSupport.No : InteractionSupport.Detect,
        });
        if (redirected)
            console.Profile.Width = 200;
        return console;
    }
}
