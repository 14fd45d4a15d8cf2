using Picollo.Simulation;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo simulation-probe</c>, hidden: the small .NET program <c>picollo doctor</c> runs under Valgrind to learn whether
/// simulated counters can count here (<see cref="SimulationProbe"/>). It says whether it found itself under Valgrind.
/// </summary>
internal static class SimulationProbeCommand
{
    /// <summary>The command's name.</summary>
    public const string Name = "simulation-probe";

    /// <summary>Prints <see cref="SimulationProbe.Answer"/> under Valgrind (exit 0); otherwise says it is not under it (exit 2).</summary>
    public static int Run(TextWriter output)
    {
        if (!CallgrindSession.IsUnderValgrind)
        {
            output.WriteLine("picollo: not running under valgrind (this command is picollo doctor's probe).");
            return ExitCodes.Error;
        }

        output.WriteLine(SimulationProbe.Answer);
        return ExitCodes.Success;
    }

    /// <summary>How to start this tool again: its program, and its assembly when the program is the dotnet host.</summary>
    public static (string Program, string[] Arguments) ThisTool()
    {
        string program = Environment.ProcessPath ?? "dotnet";
        string assembly = typeof(SimulationProbeCommand).Assembly.Location;
        return string.Equals(Path.GetFileNameWithoutExtension(program), "dotnet", StringComparison.OrdinalIgnoreCase)
            ? (program, [assembly, Name])
            : (program, [Name]);
    }
}
