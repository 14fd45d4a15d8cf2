using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Measurement.Engine;
using Picollo.Testing;

namespace Picollo.Cli.Ab;

/// <summary>
/// One side's worker of a process pair (docs/VERDICTS.md, "Base against head"): the build's test program started on the
/// test methods of one round, with the pairing's variables (<see cref="PairedPeer"/>) so every measurement it takes
/// waits for the tool. xunit.v3 test assemblies are programs that take <c>-method</c> (repeated: any of them); NUnit test
/// assemblies run the tests through the NUnit adapter's startup hook, as a fresh-process confirmation does.
/// </summary>
internal sealed class AbWorkerProcess : IDisposable
{
    // The NUnit adapter's startup hook reads these (Picollo.Testing.NUnit's StartupHook; the tool does not reference the adapter).
    private const string NUnitTestVariable = "PICOLLO_NUNIT_WORKER_TEST";
    private const string NUnitAssemblyVariable = "PICOLLO_NUNIT_WORKER_ASSEMBLY";

    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private AbWorkerProcess(string side, Process process)
    {
        Side = side;
        _process = process;
    }

    /// <summary><c>base</c> or <c>head</c>.</summary>
    public string Side { get; }

    /// <summary>Whether the process has exited.</summary>
    public bool HasExited
    {
        get
        {
            try
            {
                return _process.HasExited;
            }
            catch (InvalidOperationException)
            {
                return true;
            }
        }
    }

    /// <summary>The exit code, once exited.</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Starts the worker.</summary>
    /// <param name="side"><c>base</c> or <c>head</c>.</param>
    /// <param name="assembly">The build's test assembly.</param>
    /// <param name="tests">The test methods to run, in turn.</param>
    /// <param name="channel">The tool's socket.</param>
    /// <param name="output">The folder the worker writes its records to.</param>
    /// <param name="cpu">The CPU both workers measure on.</param>
    /// <param name="simulate">Whether the test's simulated counters are counted in this pair (its first).</param>
    /// <returns>The running worker.</returns>
    /// <exception cref="AbException">The host could not be started.</exception>
    public static AbWorkerProcess Start(
        string side, AbTestAssembly assembly, IReadOnlyList<AbTest> tests, string channel, string output, int cpu, bool simulate)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(assembly.AssemblyPath)!,
        };
        start.ArgumentList.Add(assembly.AssemblyPath);
        if (assembly.Framework == AbFramework.Xunit)
        {
            foreach (AbTest test in tests)
            {
                start.ArgumentList.Add("-method");
                start.ArgumentList.Add(test.FullName);
            }

            string[] arguments = ["-noLogo", "-noColor", "-noAutoReporters", "-parallel", "none"];
            foreach (string argument in arguments)
                start.ArgumentList.Add(argument);
        }
        else
        {
            string adapter = Path.Combine(Path.GetDirectoryName(assembly.AssemblyPath)!, "Picollo.Testing.NUnit.dll");
            start.Environment["DOTNET_STARTUP_HOOKS"] = adapter;
            // One full name per line: the hook runs any of them (a test's name holds no line break).
            start.Environment[NUnitTestVariable] = string.Join('\n', tests.Select(static t => t.FullName));
            start.Environment[NUnitAssemblyVariable] = assembly.AssemblyPath;
        }

        foreach ((string name, string value) in assembly.Environment)
            start.Environment[name] = value;
        start.Environment[PairedPeer.ChannelVariable] = channel;
        start.Environment[PairedPeer.SideVariable] = side;
        start.Environment[PairedPeer.OutputVariable] = output;
        start.Environment[PairedPeer.CpuVariable] = cpu.ToString(CultureInfo.InvariantCulture);
        start.Environment[PairedPeer.SimulateVariable] = simulate ? "1" : "0";
        ChildProcessIsolation.Apply(start, Path.Combine(output, side + "-results"));

        var process = new Process { StartInfo = start };
        var worker = new AbWorkerProcess(side, process);
        process.OutputDataReceived += (_, e) => worker.Append(e.Data);
        process.ErrorDataReceived += (_, e) => worker.Append(e.Data);
        try
        {
            process.Start();
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            process.Dispose();
            throw new AbException($"The {side} worker could not start dotnet: {e.Message}. Check that dotnet is on the PATH.");
        }

        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return worker;
    }

    /// <summary>Waits for the process to exit.</summary>
    /// <param name="timeout">How long.</param>
    /// <returns>Whether it exited.</returns>
    public bool WaitForExit(TimeSpan timeout) => _process.WaitForExit(timeout);

    /// <summary>Stops the process and its children.</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
                _process.Kill(entireProcessTree: true);
        }
        catch (Exception e)
            when (e is InvalidOperationException or AggregateException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            // It exited meanwhile.
        }
    }

    /// <summary>The last lines the worker printed, where a crash or a failed test explains itself.</summary>
    /// <param name="lines">How many.</param>
    /// <returns>The lines joined with " | ", or empty.</returns>
    public string Tail(int lines = 6)
    {
        string[] all;
        lock (_output)
            all = _output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        all = [.. all.Where(static l =>
            !l.StartsWith("at ", StringComparison.Ordinal) && !l.StartsWith("--- End of", StringComparison.Ordinal))];
        return string.Join(" | ", all[^Math.Min(lines, all.Length)..]);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        Kill();
        _process.Dispose();
    }

    private void Append(string? line)
    {
        if (line is null)
            return;
        lock (_output)
        {
            // Bounded: a test that prints without end must not fill the tool's memory.
            if (_output.Length > 1 << 20)
                _output.Remove(0, _output.Length / 2);
            _output.AppendLine(line);
        }
    }
}
