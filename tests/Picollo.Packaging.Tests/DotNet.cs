using System.Diagnostics;
using System.Globalization;
using System.Text;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>Runs the dotnet CLI as a user would, with the environment of a user's machine, and keeps everything it printed.</summary>
public static class DotNet
{
    /// <summary>The combined output and exit code of one dotnet command.</summary>
    public sealed record Run(string Command, int ExitCode, string Output)
    {
        /// <summary>Throws with the whole output unless the command succeeded.</summary>
        public Run ShouldSucceed() => ExitCode == 0 ? this : throw new InvalidOperationException($"'{Command}' exited with {ExitCode}:\n{Output}");
    }

    /// <summary>Runs <c>dotnet <paramref name="arguments"/></c> in <paramref name="directory"/>.</summary>
    public static async Task<Run> RunAsync(string directory, IReadOnlyDictionary<string, string> environment, TimeSpan timeout, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);

        // A user's shell, not this test host's: nothing of the running test (its runner, its results folder) leaks in.
        foreach (string name in new[] { "VSTEST_HOST_DEBUG", "PICOLLO_RESULTS_DIR", "PICOLLO_UPDATE_BASELINES", "PICOLLO_BASELINE_ROOT", "MSBuildExtensionsPath", "MSBUILD_EXE_PATH", "MSBuildSDKsPath" })
            start.Environment.Remove(name);
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1";
        foreach ((string name, string value) in environment)
            start.Environment[name] = value;

        var output = new StringBuilder();
        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) lock (output) output.AppendLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (output) output.AppendLine(e.Data); };
        var clock = Stopwatch.StartNew();
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"'dotnet {string.Join(' ', arguments)}' did not finish within {timeout.TotalSeconds:0} s:\n{output}");
        }

        process.WaitForExit();

        // Where a test's minutes go: each command and its time in the test's output (the trx), beside what it asserts.
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"dotnet {string.Join(' ', arguments)}: exit code {process.ExitCode} after {clock.Elapsed.TotalSeconds:0.0} s"));
        lock (output)
            return new Run("dotnet " + string.Join(' ', arguments), process.ExitCode, output.ToString());
    }
}
