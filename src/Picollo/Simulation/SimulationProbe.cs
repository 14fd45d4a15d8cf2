using System.Diagnostics;
using System.Text;

namespace Picollo.Simulation;

/// <summary>
/// Whether Valgrind can run .NET on this machine, as a simulation worker runs it (docs/COUNTERS.md, "Simulated counters"):
/// a small .NET program started under callgrind with the worker's settings, which answers <see cref="Answer"/> when it
/// found itself under Valgrind and libpicollo_native's requests working. Found out by starting it: a few seconds, so the
/// doctor asks, and a test learns it from its own worker.
/// </summary>
internal static class SimulationProbe
{
    /// <summary>What the probed program prints when it runs under Valgrind with the native helper loaded.</summary>
    public const string Answer = "picollo: running under valgrind";

    /// <summary>Runs <paramref name="program"/> with <paramref name="arguments"/> under the worker's callgrind.</summary>
    /// <param name="valgrind">The installation.</param>
    /// <param name="program">The program: a .NET host or apphost.</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="timeout">How long it may take.</param>
    /// <returns>How long it took, and why it does not run .NET when it does not (with its last words).</returns>
    public static (TimeSpan Took, string? Problem) Run(
        ValgrindInstallation valgrind, string program, IReadOnlyList<string> arguments, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(valgrind);
        if (valgrind.UnavailableReason is { } unavailable)
            return (TimeSpan.Zero, unavailable);

        string folder = Directory.CreateTempSubdirectory("picollo-probe-").FullName;
        long start = Stopwatch.GetTimestamp();
        try
        {
            var info = new ProcessStartInfo(valgrind.Path!)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
                WorkingDirectory = folder,
            };
            foreach (string argument in SimulationCommand.ValgrindArguments(folder))
                info.ArgumentList.Add(argument);
            info.ArgumentList.Add(program);
            foreach (string argument in arguments)
                info.ArgumentList.Add(argument);
            foreach ((string name, string value) in SimulationCommand.Environment)
                info.Environment[name] = value;

            using var process = Process.Start(info)!;
            Task<string> output = process.StandardOutput.ReadToEndAsync();
            Task<string> errors = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(timeout))
            {
                process.Kill(entireProcessTree: true);
                return (Stopwatch.GetElapsedTime(start), SimulationMessages.ProbeTimedOut(valgrind, timeout));
            }

            string printed = output.Result + errors.Result;
            return printed.Contains(Answer, StringComparison.Ordinal)
                ? (Stopwatch.GetElapsedTime(start), null)
                : (Stopwatch.GetElapsedTime(start), SimulationMessages.ProbeFailed(valgrind, process.ExitCode, LastWords(printed, folder)));
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or IOException)
        {
            return (Stopwatch.GetElapsedTime(start), SimulationMessages.ProbeFailed(valgrind, -1, e.Message));
        }
        finally
        {
            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (IOException)
            {
                // A temporary folder left behind, nothing more.
            }
        }
    }

    // The program's last lines, and Valgrind's own when it could not run it.
    private static string LastWords(string printed, string folder)
    {
        var words = new StringBuilder();
        foreach (string line in printed.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).TakeLast(3))
            words.Append(words.Length == 0 ? string.Empty : " | ").Append(line);
        string log = SimulationWorkerProtocol.ValgrindLog(folder);
        if (File.Exists(log))
        {
            foreach (string line in File.ReadAllLines(log).Where(static l => l.Contains("valgrind:", StringComparison.Ordinal)
                || l.Contains("error", StringComparison.OrdinalIgnoreCase)).TakeLast(3))
                words.Append(words.Length == 0 ? string.Empty : " | ").Append(line.Trim());
        }

        return words.Length == 0 ? "it printed nothing" : words.ToString();
    }
}
