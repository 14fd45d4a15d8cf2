using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Runtime.Loader;
using System.Security;
using NUnit.Framework.Api;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using Picollo.Testing;

// The runtime looks a startup hook up by this exact name, in no namespace (DOTNET_STARTUP_HOOKS), and calls Initialize
// before the program's Main.
[SuppressMessage("Design", "CA1050:Declare types in namespaces", Justification = "A startup hook must be the global type StartupHook.")]
internal static class StartupHook
{
    /// <summary>
    /// The variable that names the tests a fresh process runs: their NUnit full names, one per line (<c>picollo ab</c> runs a
    /// round's tests in one pair of processes; a fresh-process confirmation names one).
    /// </summary>
    internal const string TestVariable = "PICOLLO_NUNIT_WORKER_TEST";

    /// <summary>The variable that names the test assembly to load.</summary>
    internal const string AssemblyVariable = "PICOLLO_NUNIT_WORKER_ASSEMBLY";

    /// <summary>
    /// In a fresh process started to measure one perf test (docs/VERDICTS.md, "Levels"): runs that test through NUnit's own
    /// runner (its builders, the fixture, set-up and tear-down, the adapter's command) and ends the process before the test
    /// assembly's Main, which under Microsoft.NET.Test.Sdk does nothing. Without the variables it does nothing, so the hook
    /// never changes a process that was not started for it.
    /// </summary>
    public static void Initialize()
    {
        // A lean simulation worker runs its one test without NUnit (docs/COUNTERS.md, "Simulated counters").
        LeanTestHost.RunIfAsked();
        if (Environment.GetEnvironmentVariable(TestVariable) is not { Length: > 0 } test
            || Environment.GetEnvironmentVariable(AssemblyVariable) is not { Length: > 0 } path)
        {
            return;
        }

        // Read once and cleared, so a process the test itself starts (a `dotnet` tool, a server) neither runs this hook nor
        // the test again.
        foreach (string variable in (string[])[TestVariable, AssemblyVariable, "DOTNET_STARTUP_HOOKS"])
            Environment.SetEnvironmentVariable(variable, null);

        int code;
        try
        {
            Assembly assembly = AssemblyLoadContext.Default.LoadFromAssemblyPath(path);
            var runner = new NUnitTestAssemblyRunner(new DefaultTestAssemblyBuilder());
            runner.Load(assembly, new Dictionary<string, object>());
            string names = string.Concat(test.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                .Select(static t => $"<test>{SecurityElement.Escape(t)}</test>"));
            ITestResult result = runner.Run(TestListener.NULL, TestFilter.FromXml($"<filter><or>{names}</or></filter>"));
            Console.WriteLine($"Picollo worker: {test.Replace('\n', ' ')}: {result.ResultState} "
                + $"({result.PassCount} passed, {result.FailCount} failed, {result.SkipCount} skipped). {result.Message}");
            code = result.PassCount + result.FailCount + result.SkipCount == 0 ? 3 : 0;
        }
        catch (Exception e)
            when (e is IOException or BadImageFormatException or InvalidOperationException or ArgumentException or NUnitException)
        {
            Console.Error.WriteLine($"Picollo worker: could not run {test} from {path}: {e.Message}");
            code = 2;
        }

        Environment.Exit(code);
    }
}
