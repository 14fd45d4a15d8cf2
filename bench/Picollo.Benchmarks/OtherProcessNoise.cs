using System.Diagnostics;

namespace Picollo.Benchmarks;

/// <summary>
/// Another process keeping a core busy (issue 24): a spinning <c>sh -c</c> loop, not a thread of the bench, so the
/// measured process sees what a user's CI shows when a build or another test project runs beside the tests: CPU time of
/// other processes in /proc/stat, the host scheduling both vCPUs. Not pinned: the scheduler places it, as it places a
/// user's.
/// </summary>
internal sealed class OtherProcessNoise : IDisposable
{
    private readonly Process _process;

    private OtherProcessNoise(Process process) => _process = process;

    public static OtherProcessNoise Start()
    {
        var start = new ProcessStartInfo("/bin/sh") { UseShellExecute = false };
        start.ArgumentList.Add("-c");
        // A shell loop that spins and, every 100,000 turns (a fraction of a second), checks that the bench still runs: a bench
        // stopped mid-cell (SIGTERM) does not dispose it, and a plain `while :; do :; done` outlived such a stop and ran beside
        // the next "idle" cell for its whole length.
        start.ArgumentList.Add(string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"while kill -0 {Environment.ProcessId} 2>/dev/null; do i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; done"));
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
        try
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }
        catch (InvalidOperationException)
        {
            // It ended on its own.
        }

        _process.Dispose();
    }
}
