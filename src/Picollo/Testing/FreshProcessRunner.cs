using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;

namespace Picollo.Testing;

/// <summary>
/// Measures a perf test's body in a fresh process of its test assembly (docs/VERDICTS.md, "Levels"): starts the adapter's
/// <see cref="PerfTestWorker"/> with the worker protocol's variables (<see cref="FreshProcessWorker"/>), waits for it
/// under a timeout and the test's cancellation, and reads what it measured. The child measures while this process holds
/// the machine-wide measurement lock for it; it writes no report, no received file and no baseline.
/// </summary>
/// <param name="worker">How the adapter starts the test.</param>
/// <param name="timeBudget">The test's time budget per measurement, for the child's timeout.</param>
/// <param name="fixedTimeout">
/// The child's time besides its measurements; <see cref="DefaultFixedTimeout"/> when <see langword="null"/>.
/// </param>
internal sealed class FreshProcessRunner(PerfTestWorker worker, TimeSpan timeBudget, TimeSpan? fixedTimeout = null) : IFreshProcessMeasurer
{
    /// <summary>
    /// Start-up, discovery and JIT of a test host take a few seconds; each measurement adds its warmup (up to 1.5 s for a
    /// body still at tier 0, plus settling) and about twice its budget, which the timeout adds per measurement.
    /// </summary>
    public static readonly TimeSpan DefaultFixedTimeout = TimeSpan.FromSeconds(90);

    /// <inheritdoc/>
    public FreshProcessMeasurement Measure(string baselinePath, int measurements, CancellationToken cancellation)
    {
        string folder = Directory.CreateTempSubdirectory("picollo-worker-").FullName;
        try
        {
            return Run(baselinePath, measurements, folder, cancellation);
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

    private FreshProcessMeasurement Run(string baselinePath, int measurements, string folder, CancellationToken cancellation)
    {
        string prefix = Path.Combine(folder, "measurement");
        ProcessStartInfo start = StartInfo(baselinePath, measurements, folder, prefix);
        var output = new StringBuilder();
        using var outputClosed = new CountdownEvent(2);
        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Append(output, e.Data, outputClosed);
        process.ErrorDataReceived += (_, e) => Append(output, e.Data, outputClosed);
        try
        {
            if (!process.Start())
                return FreshProcessMeasurement.Failed(PerfTestMessages.FreshProcessDidNotStart(worker.Description, worker.FileName));
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return FreshProcessMeasurement.Failed(
                PerfTestMessages.FreshProcessCouldNotStart(worker.Description, worker.FileName, e.Message));
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        TimeSpan timeout = (fixedTimeout ?? DefaultFixedTimeout) + (timeBudget * 4 * measurements);
        bool exited;
        using (cancellation.Register(() => Kill(process)))
            exited = process.WaitForExit(timeout);
        if (!exited)
            Kill(process);

        // The redirected output read to its end, for the message of a child that measured nothing; bounded, because a
        // grandchild the test started (a server, a build node) can hold the pipes open after the child exited.
        _ = outputClosed.Wait(TimeSpan.FromSeconds(5), CancellationToken.None);

        cancellation.ThrowIfCancellationRequested();
        IReadOnlyList<BaselineRecord> records;
        try
        {
            records = FreshProcessWorker.Read(prefix);
        }
        catch (BaselineFormatException e)
        {
            return FreshProcessMeasurement.Failed(PerfTestMessages.FreshProcessUnreadable(worker.Description, e.Message));
        }

        if (records.Count > 0)
            return new FreshProcessMeasurement(records, null);
        if (FreshProcessWorker.ReadNotFinal(prefix) is { } notes)
        {
            string failure = PerfTestMessages.FreshProcessRanNoFinalCode(worker.Description, measurements, notes);
            return new FreshProcessMeasurement([], failure) { RanNoFinalCode = true };
        }

        return FreshProcessMeasurement.Failed(!exited
            ? PerfTestMessages.FreshProcessTimedOut(worker.Description, timeout, Tail(output))
            : PerfTestMessages.FreshProcessExitedEarly(worker.Description, process.ExitCode, Tail(output)));
    }

    // The worker's command line and environment: which baseline to measure, how often, where to write; the machine-wide
    // lock inherited from this process, which holds it for the child.
    private ProcessStartInfo StartInfo(string baselinePath, int measurements, string folder, string prefix)
    {
        var start = new ProcessStartInfo(worker.FileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = folder,
        };
        foreach (string argument in worker.Arguments)
            start.ArgumentList.Add(argument);
        foreach ((string name, string value) in worker.Environment)
            start.Environment[name] = value;
        start.Environment[FreshProcessWorker.BaselineVariable] = baselinePath;
        start.Environment[FreshProcessWorker.OutputVariable] = prefix;
        start.Environment[FreshProcessWorker.MeasurementsVariable] = measurements.ToString(CultureInfo.InvariantCulture);
        ChildProcessIsolation.Apply(start, Path.Combine(folder, "results"));
        return start;
    }

    // A line of the child's output, or, at the end of one of its two streams (null), one count of the streams closed.
    private static void Append(StringBuilder output, string? line, CountdownEvent closed)
    {
        if (line is null)
        {
            if (!closed.IsSet)
                closed.Signal();
            return;
        }

        lock (output)
            output.AppendLine(line);
    }

    // The last lines the child printed: where a crash or a refused test explains itself.
    private static string[] Tail(StringBuilder output)
    {
        string[] lines;
        lock (output)
            lines = output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return lines[^Math.Min(5, lines.Length)..];
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (Exception e)
            when (e is InvalidOperationException or AggregateException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            // It exited meanwhile, or a process of its tree could not be killed: nothing more to do from here.
        }
    }
}
