using System.CommandLine;

namespace Picollo.Cli;

/// <summary>The picollo tool's entry point: parses the command line and runs one command.</summary>
internal static class Program
{
    /// <summary>Runs the command <paramref name="args"/> name; the exit code is the command's (<see cref="ExitCodes"/>).</summary>
    public static int Main(string[] args)
    {
        RootCommand root = Commands.Build(Terminal.Create(), Console.In);
        return root.Parse(args).Invoke();
    }
}
