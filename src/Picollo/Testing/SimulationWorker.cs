using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;
using Picollo.Simulation;

namespace Picollo.Testing;

/// <summary>
/// A perf test's simulation worker, seen from the test's process (docs/COUNTERS.md, "Simulated counters"): the adapter's
/// command for the one test (<see cref="PerfTestWorker"/>) run under <c>valgrind --tool=callgrind</c>, started at the
/// test's first measurement with simulated counters and kept for its others, each of which it lets go on in turn
/// (<see cref="SimulationWorkerProtocol"/>) after this process measured it natively. One worker per test: a process that
/// ran other tests first would have compiled their shared generic code from other calls, and a body measured alone
/// counted 0.1 % differently after another had run in its process.
/// </summary>
/// <param name="worker">How the adapter starts the test in a fresh process.</param>
/// <param name="testKey">The test as the worker names it (<see cref="SimulationWorkerProtocol.TestKey"/>).</param>
/// <param name="timeout">How long one region may take, the worker's start included.</param>
internal sealed class SimulationWorker(PerfTestWorker worker, string testKey, TimeSpan timeout) : ISimulatedMeasurer, IDisposable
{
    /// <summary>
    /// Where simulation workers read their settings (<see cref="TimeoutVariable"/>, <c>PICOLLO_VALGRIND</c>, <c>PATH</c>): the
    /// process environment, or a seam the adapter tests set while they run sample tests.
    /// </summary>
    internal static Func<string, string?> GetEnvironmentVariable { get; set; } = Environment.GetEnvironmentVariable;

    /// <summary>The variable that sets a region's timeout, in seconds.</summary>
    public const string TimeoutVariable = "PICOLLO_SIMULATION_TIMEOUT";

    /// <summary>
    /// A region's default timeout: the worker's start (a test host under Valgrind takes about 5 s), a warmup capped at 60 s,
    /// and the simulated samples, for bodies of up to a few milliseconds per operation.
    /// </summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(5);

    private static readonly TimeSpan s_poll = TimeSpan.FromMilliseconds(20);

    private readonly StringBuilder _output = new();
    private Process? _process;
    private string? _folder;
    private string? _failure;
    private int _next;

    /// <inheritdoc/>
    public bool IsWorker => false;

    /// <summary>The timeout the environment sets (<see cref="TimeoutVariable"/>), else <see cref="DefaultTimeout"/>.</summary>
    public static TimeSpan TimeoutFrom(Func<string, string?> getEnvironmentVariable) =>
        double.TryParse(getEnvironmentVariable(TimeoutVariable), NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds)
            && seconds > 0 && double.IsFinite(seconds)
            ? TimeSpan.FromSeconds(seconds)
            : DefaultTimeout;

    /// <inheritdoc/>
    public SimulatedMeasurement Measure<TLoop>(PerfOptions options, ImmutableArray<string> counters, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop => MeasureRegion(counters);

    /// <inheritdoc/>
    /// <remarks>
    /// A new worker runs the test up to that region, measuring the regions before it as well (the test's own code between
    /// them runs there too), and ends.
    /// </remarks>
    public SimulatedMeasurement MeasureAgain(int region, ImmutableArray<string> counters)
    {
        using var other = new SimulationWorker(worker, testKey, timeout);
        SimulatedMeasurement measured;
        do
        {
            measured = other.MeasureRegion(counters);
        }
        while (measured.Region < region && measured.Simulator is not null);
        return measured;
    }

    private SimulatedMeasurement MeasureRegion(ImmutableArray<string> counters)
    {
        int region = _next++;
        if (_failure is not null)
            throw new PerfSimulationException(_failure);
        ValgrindInstallation valgrind = ValgrindInstallation.For(GetEnvironmentVariable);
        if (valgrind.UnavailableReason is { } unavailable)
            return SimulatedMeasurement.Unavailable(counters, unavailable);

        long start = Stopwatch.GetTimestamp();
        CancellationToken cancellation = MeasurementCancellation.Current;
        try
        {
            Process process = _process ?? Start(valgrind.Path!);
            process.StandardInput.WriteLine(SimulationWorkerProtocol.GoLine(region));
            process.StandardInput.Flush();
            SimulatedMeasurement measured = Wait(process, region, start, cancellation);
            return measured with { WallTime = Stopwatch.GetElapsedTime(start), Region = region };
        }
        catch (PerfSimulationException e)
        {
            // A worker that failed once is gone: the test's later regions fail with the same words.
            _failure = e.Message;
            Stop();
            throw;
        }
        catch (OperationCanceledException)
        {
            Stop();
            throw;
        }
    }

    /// <summary>Ends the worker at once: it waits for a region that will not come, with nothing left to write.</summary>
    public void Dispose()
    {
        Stop();
        if (_folder is not null)
        {
            try
            {
                Directory.Delete(_folder, recursive: true);
            }
            catch (IOException)
            {
                // A temporary folder left behind, nothing more.
            }
            catch (UnauthorizedAccessException)
            {
                // The same.
            }
        }
    }

    private Process Start(string valgrind)
    {
        _folder = Directory.CreateTempSubdirectory("picollo-simulation-").FullName;
        var start = new ProcessStartInfo(valgrind)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = _folder,
        };
        foreach (string argument in SimulationCommand.ValgrindArguments(_folder))
            start.ArgumentList.Add(argument);
        start.ArgumentList.Add(worker.FileName);
        foreach (string argument in worker.Arguments)
            start.ArgumentList.Add(argument);
        foreach ((string name, string value) in worker.Environment)
            start.Environment[name] = value;
        foreach ((string name, string value) in SimulationCommand.Environment)
            start.Environment[name] = value;
        // A worker of picollo ab or of a fresh-process measurement passes its own role on to no one: this one only simulates.
        foreach (string variable in (string[])[
            PairedPeer.ChannelVariable, PairedPeer.SideVariable, PairedPeer.OutputVariable, PairedPeer.CpuVariable,
            PairedPeer.SimulateVariable, FreshProcessWorker.BaselineVariable, FreshProcessWorker.OutputVariable,
            FreshProcessWorker.MeasurementsVariable])
        {
            start.Environment.Remove(variable);
        }

        start.Environment[SimulationWorkerProtocol.FolderVariable] = _folder;
        start.Environment[SimulationWorkerProtocol.TestVariable] = testKey;
        ChildProcessIsolation.Apply(start, Path.Combine(_folder, "results"));

        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Append(e.Data);
        process.ErrorDataReceived += (_, e) => Append(e.Data);
        try
        {
            if (!process.Start())
                throw new PerfSimulationException(PerfTestMessages.SimulationWorkerDidNotStart(worker.Description, valgrind));
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            process.Dispose();
            throw new PerfSimulationException(PerfTestMessages.SimulationWorkerCouldNotStart(worker.Description, valgrind, e.Message), e);
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        // Its CPU time is this test's own work, not other processes keeping the machine busy.
        MachineLoad.CountAsOwn(process.Id);
        _process = process;
        return process;
    }

    // Until the region's file, its failure, the worker's end, the timeout or the test's cancellation.
    private SimulatedMeasurement Wait(Process process, int region, long start, CancellationToken cancellation)
    {
        string folder = _folder!;
        string measured = SimulationWorkerProtocol.RegionPath(folder, region);
        string failed = SimulationWorkerProtocol.FailurePath(folder, region);
        TimeSpan limit = timeout;
        while (true)
        {
            cancellation.ThrowIfCancellationRequested();
            if (File.Exists(measured))
                return Read(measured);
            if (File.Exists(failed))
            {
                string what = File.ReadAllText(failed);
                throw new PerfSimulationException(PerfTestMessages.SimulationFailed(worker.Description, what, LastWords()));
            }
            if (process.HasExited)
            {
                // Written just before it ended.
                if (File.Exists(measured))
                    return Read(measured);
                process.WaitForExit();
                throw new PerfSimulationException(
                    PerfTestMessages.SimulationWorkerExitedEarly(worker.Description, process.ExitCode, region, LastWords()));
            }

            if (Stopwatch.GetElapsedTime(start) > limit)
            {
                Kill(process);
                string timedOut = PerfTestMessages.SimulationTimedOut(worker.Description, limit, TimeoutVariable, LastWords());
                throw new PerfSimulationException(timedOut);
            }

            _ = cancellation.WaitHandle.WaitOne(s_poll);
        }
    }

    private SimulatedMeasurement Read(string path)
    {
        try
        {
            return SimulationWorkerProtocol.Read(path);
        }
        catch (InvalidDataException e)
        {
            throw new PerfSimulationException(PerfTestMessages.SimulationUnreadable(worker.Description, e.Message), e);
        }
    }

    // The worker's last lines and Valgrind's own: where a crash, a refused test or a Valgrind that cannot run .NET explains itself.
    private List<string> LastWords()
    {
        string[] lines;
        lock (_output)
            lines = _output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var words = lines[^Math.Min(5, lines.Length)..].ToList();
        string log = SimulationWorkerProtocol.ValgrindLog(_folder!);
        if (File.Exists(log))
        {
            string[] valgrind = [.. File.ReadAllLines(log).Select(WithoutPid).Where(static l => !IsRoutine(l))];
            words.AddRange(valgrind[^Math.Min(3, valgrind.Length)..].Select(static l => "valgrind: " + l.Trim()));
        }

        return words;
    }

    // Valgrind's banner, its notes and its final summary of counts say nothing about why a worker failed.
    private static readonly string[] s_routine =
    [
        "Callgrind, a call-graph", "Copyright (C)", "Using Valgrind-", "Command:", "Parent PID:", "For interactive control",
        "warning: L3 cache found", "Events    :", "Collected :", "refs:", "misses:", "miss rate:", "Branches:", "Mispredicts:",
        "Mispred rate:",
    ];

    private static bool IsRoutine(string line) =>
        string.IsNullOrWhiteSpace(line) || s_routine.Any(r => line.Contains(r, StringComparison.Ordinal));

    // Valgrind's log lines start with "==pid== " (or "--pid-- " for its warnings).
    private static string WithoutPid(string line) =>
        line.Length > 2 && (line.StartsWith("==", StringComparison.Ordinal) || line.StartsWith("--", StringComparison.Ordinal))
            && line.IndexOf(line[..2] + " ", 2, StringComparison.Ordinal) is > 0 and var end
            ? line[(end + 3)..]
            : line;

    private void Append(string? line)
    {
        if (line is null)
            return;
        lock (_output)
        {
            // The worker's output is read for its last words only: bounded, as a test may print a lot.
            if (_output.Length > 64 * 1024)
                _output.Remove(0, _output.Length / 2);
            _output.AppendLine(line);
        }
    }

    private void Stop()
    {
        if (_process is not { } process)
            return;
        _process = null;
        // Killed rather than let go: a test host shutting down under Valgrind takes seconds of a core, beside the next test's
        // native measurement.
        try
        {
            Kill(process);
        }
        finally
        {
            MachineLoad.Forget(process.Id);
            process.Dispose();
        }
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(TimeSpan.FromSeconds(10));
        }
        catch (Exception e)
            when (e is InvalidOperationException or AggregateException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            // It exited meanwhile, or a process of its tree could not be killed: nothing more to do from here.
        }
    }
}
