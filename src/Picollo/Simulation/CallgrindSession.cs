using System.Globalization;
using Picollo.Interop;

namespace Picollo.Simulation;

/// <summary>
/// This process as callgrind runs it for a simulation worker: where callgrind writes its dumps (the worker's
/// <c>--callgrind-out-file</c>), how many it wrote, and whether simulation has started. Callgrind names the dumps of a
/// process run with <c>--separate-threads=yes</c> <c>{out}.{n}-{thread}</c>, n counting every dump from 1; each dump
/// holds the counts of the thread that asked for it.
/// </summary>
/// <param name="outputFile">The <c>--callgrind-out-file</c> callgrind was started with.</param>
internal sealed class CallgrindSession(string outputFile)
{
    private int _dumps;

    /// <summary>The simulator that wrote the last dump, as its dumps name it (e.g. <c>callgrind-3.19.0</c>).</summary>
    public string? Creator { get; private set; }

    /// <summary>Whether this process runs under Valgrind at all (the client request's answer).</summary>
    public static bool IsUnderValgrind => PicolloNative.Status.IsLoaded && Callgrind.Running() > 0;

    /// <summary>
    /// Starts simulating: the worker runs its start-up and each warmup unsimulated (<c>--instr-atstart=no</c>), several
    /// times faster, and simulates a measurement's samples only (<see cref="StopInstrumentation"/> after them).
    /// </summary>
    public static void StartInstrumentation() => Callgrind.StartInstrumentation();

    /// <summary>Stops simulating: what follows (the results written, the rest of the test) runs at the unsimulated speed.</summary>
    public static void StopInstrumentation() => Callgrind.StopInstrumentation();

    /// <summary>
    /// Dumps the calling thread's counts since the last <see cref="Callgrind.Begin"/> under <paramref name="name"/>, reads
    /// them back and deletes the file.
    /// </summary>
    /// <param name="name">The dump's name (ASCII): checked against the file read.</param>
    /// <returns>The counts.</returns>
    /// <exception cref="InvalidDataException">
    /// No dump was written (the process does not run under callgrind), or it is unreadable.
    /// </exception>
    /// <exception cref="IOException">The dump could not be read.</exception>
    public SimulatedEvents Dump(string name)
    {
        Callgrind.Dump(name);
        int number = ++_dumps;
        string folder = Path.GetDirectoryName(outputFile) ?? ".";
        string prefix = Path.GetFileName(outputFile) + "." + number.ToString(CultureInfo.InvariantCulture);
        string? path = Directory.EnumerateFiles(folder, prefix + "*")
            .FirstOrDefault(p => Path.GetFileName(p) is { } file
                && (file == prefix || file.StartsWith(prefix + "-", StringComparison.Ordinal)));
        if (path is null)
            throw new InvalidDataException(SimulationMessages.NoDumpWritten(outputFile, number));
        try
        {
            (SimulatedEvents events, string? creator) = CallgrindDump.Read(path, name);
            Creator = creator ?? Creator;
            return events;
        }
        finally
        {
            File.Delete(path);
        }
    }
}
