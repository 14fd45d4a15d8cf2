using System.Diagnostics.CodeAnalysis;
using Picollo.Testing;

// The runtime looks a startup hook up by this exact name, in no namespace (DOTNET_STARTUP_HOOKS), and calls Initialize
// before the program's Main.
[SuppressMessage("Design", "CA1050:Declare types in namespaces", Justification = "A startup hook must be the global type StartupHook.")]
internal static class StartupHook
{
    /// <summary>
    /// In a lean simulation worker (docs/COUNTERS.md, "Simulated counters"): runs the one perf test without xunit and ends
    /// the process before the test assembly's Main (xunit's runner). Anywhere else it does nothing.
    /// </summary>
    public static void Initialize() => LeanTestHost.RunIfAsked();
}
