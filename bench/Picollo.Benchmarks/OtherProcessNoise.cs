using System.Diagnostics;

namespace Picollo.Benchmarks;

/// <summary>
/// Another process keeping a core busy (issue 24): <c>sh -c 'while :; do :; done'</c>, not a thread of the bench, so the
/// measured process sees what a user's CI shows when a build or another test project runs beside the tests: CPU time of
/// other processes in /proc/stat, the host scheduling both vCPUs. Not pinned: the scheduler places it, as it places a
/// user's.
/// </summary>
internal sealed class OtherProcessNoise : IDisposable
{
    private readonly Process _process;
    private readonly EventHandler _onExit;

    private OtherProcessNoise(Process process)
    {
        _process = process;

        // A bench stopped mid-cell (SIGTERM, Ctrl-C) ends without Dispose: the spinner outlived one such stop and ran beside
        // the next "idle" cell for its whole length. The runtime raises ProcessExit on SIGTERM, so the spinner ends with us.
        _onExit = (_, _) => Stop();
        AppDomain.CurrentDomain.ProcessExit += _onExit;
        Console.CancelKeyPress += OnCancel;
    }

    public static OtherProcessNoise Start()
    {
        var start = new ProcessStartInfo("/bin/sh") { UseShellExecute = false };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add("while :; do :; done");
        Process process = Process.Start(start) ?? throw new InvalidOperationException("/bin/sh did not start.");

        // A child inherits the affinity of the thread that forked it, and the bench pins its measuring thread to CPU 0: the
        // noise would share that one CPU with the measurement instead of running where the scheduler puts it.
        if (OperatingSystem.IsLinux())
            process.ProcessorAffinity = checked((IntPtr)((1L << Math.Min(Environment.ProcessorCount, 62)) - 1));
        return new OtherProcessNoise(process);
    }

    /// <summary>The CPU time the noise used so far, proof that it ran.</summary>
    public TimeSpan CpuTime
    {
        get
        {
            _process.Refresh();
            return _process.HasExited ? TimeSpan.Zero : _process.TotalProcessorTime;
        }
    }

    public void Dispose()
    {
        AppDomain.CurrentDomain.ProcessExit -= _onExit;
        Console.CancelKeyPress -= OnCancel;
        Stop();
        _process.Dispose();
    }

    private void OnCancel(object? sender, ConsoleCancelEventArgs e) => Stop();

    private void Stop()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }
        catch (InvalidOperationException)
        {
            // It ended on its own.
        }
    }
}
