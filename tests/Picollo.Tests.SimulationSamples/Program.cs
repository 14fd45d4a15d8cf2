namespace Picollo.Tests.SimulationSamples;

/// <summary>
/// The program a simulation worker starts: its startup hook (an adapter's) runs the one test and ends the process before
/// this Main, which only says what the assembly is when someone runs it.
/// </summary>
internal static class Program
{
    private static int Main()
    {
        Console.Error.WriteLine("Perf tests with simulated counters for Picollo's adapter tests; nothing to run on its own.");
        return 2;
    }
}
