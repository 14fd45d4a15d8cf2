using System.CommandLine;
using System.CommandLine.Parsing;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>The picollo tool's entry point: parses the command line and runs one command.</summary>
internal static class Program
{
    /// <summary>Runs the command <paramref name="args"/> name; the exit code is the command's (<see cref="ExitCodes"/>).</summary>
    public static int Main(string[] args)
    {
        IAnsiConsole errors = Terminal.Errors();
        Command root = Commands.Build(Terminal.Output(), errors, Console.In);
        ParseResult parsed = root.Parse(args);

        // System.CommandLine prints the help after a parse error and exits 1, picollo's regression code: a typo in a CI
        // script would read as a regression. A usage error is exit code 2, its reason on standard error (issue 27).
        if (parsed.Errors.Count > 0)
        {
            foreach (ParseError error in parsed.Errors)
                errors.Profile.Out.Writer.WriteLine($"{Commands.ToolName}: {error.Message}");
            errors.Profile.Out.Writer.WriteLine($"Run '{Usage(parsed.CommandResult)} --help' for the arguments and options.");
            return ExitCodes.Error;
        }

        return parsed.Invoke();
    }

    // "picollo compare": the command as typed, from the root down.
    private static string Usage(CommandResult command)
    {
        var names = new List<string>();
        for (SymbolResult? result = command; result is not null; result = result.Parent)
        {
            if (result is CommandResult named)
                names.Insert(0, named.Command.Name);
        }

        return string.Join(' ', names);
    }
}
