using System.Globalization;
using Picollo.Text;

namespace Picollo.Simulation;

/// <summary>The messages of simulated counters in one place (docs/COUNTERS.md, "Simulated counters").</summary>
internal static class SimulationMessages
{
    /// <summary>A file that should be a callgrind dump is not one.</summary>
    internal static string NotADump(string path, string firstLine) =>
        $"{path} is not a callgrind dump: its first line is '{Truncate(firstLine)}', where callgrind writes '# callgrind format'.";

    /// <summary>A callgrind dump without the line that holds its totals.</summary>
    internal static string DumpWithoutTotals(string path, string line) =>
        $"The callgrind dump {path} has no '{line}' line, so it holds no totals: the worker's callgrind wrote an incomplete file.";

    /// <summary>A dump read for one region holds another's counts.</summary>
    internal static string DumpOfAnotherRegion(string path, string expected, string? found) =>
        $"The callgrind dump {path} is of '{found ?? "an unnamed dump"}', not '{expected}': another dump was written meanwhile.";

    /// <summary>A number of a dump's totals is not a number.</summary>
    internal static string DumpNumberUnreadable(string path, int line, string token) =>
        string.Create(CultureInfo.InvariantCulture, $"{path}, line {line}: '{Truncate(token)}' is not a count.");

    /// <summary>No dump appeared where callgrind writes them.</summary>
    internal static string NoDumpWritten(string outputFile, int number) =>
        string.Create(CultureInfo.InvariantCulture, $"Callgrind wrote no dump {number} beside {outputFile}: ")
        + "this process does not run under valgrind --tool=callgrind with that --callgrind-out-file, or the folder is not writable.";

    /// <summary>Garbage collections ran in some of the kept samples.</summary>
    internal static string CollectionsInSamples(int samples, int of) =>
        string.Create(CultureInfo.InvariantCulture, $"A garbage collection ran in {samples} of {of} simulated samples: ")
        + "their counts include the collector's work, which depends on what the heap held; the verdicts read the median sample.";

    /// <summary>The simulated counts per operation kept changing through the settling samples.</summary>
    internal static string CountsNeverSettled(int samples) =>
        string.Create(CultureInfo.InvariantCulture, $"The simulated instructions per operation still changed after {samples} samples ")
        + "(code being replaced, or a body whose work differs from call to call): the counts may not repeat in another process.";

    /// <summary>The unsimulated warmup reached its cap while methods were still being compiled.</summary>
    internal static string WarmupStillCompiling(TimeSpan cap) =>
        string.Create(CultureInfo.InvariantCulture, $"The simulation worker's warmup stopped at its cap ({cap.TotalSeconds:N0} s) ")
        + "while the process was still compiling methods: the simulated counts may include code that was not final yet.";

    /// <summary>A region's file the worker wrote cannot be read.</summary>
    internal static string RegionUnreadable(string path, string error) =>
        $"The simulation worker's file {path} is not a measurement it writes: {error}";

    /// <summary>A process started as a simulation worker does not run under callgrind.</summary>
    internal static string WorkerNotUnderCallgrind(string folder) =>
        $"This process was started as a simulation worker (folder {folder}) but does not run under valgrind --tool=callgrind, "
        + "or libpicollo_native is not loaded: nothing could be counted.";

    /// <summary>Simulated counters on another operating system than Linux.</summary>
    internal static string NotLinux(string os) =>
        $"Simulated counters run the body under Valgrind, which Picollo uses on Linux only; this is {os}. "
        + "Run the perf tests on a Linux runner (ubuntu-latest) for them.";

    /// <summary>Simulated counters on another architecture than x86-64.</summary>
    internal static string NotX64(string architecture) =>
        $"Simulated counters need x86-64 (libpicollo_native issues Valgrind's requests on it); this process is {architecture}.";

    /// <summary>Simulated counters without the native library that issues the client requests.</summary>
    internal static string NativeLibraryMissing(string reason) =>
        "Simulated counters need libpicollo_native, which issues Valgrind's requests: " + Sentences.Ended(reason);

    /// <summary>No valgrind program.</summary>
    internal static string ValgrindMissing(string? chosen, Version minimum) =>
        (chosen is null ? "Valgrind is not installed (no valgrind on the PATH)" : $"{chosen} does not exist")
        + $": simulated counters run the body under Valgrind's callgrind. Install it, version {minimum} or later: "
        + $"sudo apt-get install valgrind (Debian, Ubuntu), or set {ValgrindInstallation.PathVariable} to its path.";

    /// <summary>A valgrind program whose version cannot be read.</summary>
    internal static string ValgrindVersionUnreadable(string path, string problem) =>
        $"{path} is not a Valgrind whose version can be read ({Sentences.Unended(problem)}): simulated counters need Valgrind "
        + $"{ValgrindInstallation.MinimumVersion} or later. Install it with sudo apt-get install valgrind, or set "
        + $"{ValgrindInstallation.PathVariable} to another valgrind.";

    /// <summary>A valgrind older than the simulated counters need.</summary>
    internal static string ValgrindTooOld(string path, Version version, Version minimum) =>
        $"{path} is Valgrind {version}; simulated counters need {minimum} or later, the oldest that ran .NET 10 here. "
        + $"Install a newer one (Debian 12 and Ubuntu 24.04 ship it: sudo apt-get install valgrind), or set "
        + $"{ValgrindInstallation.PathVariable} to it.";

    /// <summary>The probe of Valgrind running .NET did not end in time.</summary>
    internal static string ProbeTimedOut(ValgrindInstallation valgrind, TimeSpan timeout) =>
        string.Create(CultureInfo.InvariantCulture, $"Valgrind {valgrind.Version} ({valgrind.Path}) did not run a small .NET program ")
        + string.Create(CultureInfo.InvariantCulture, $"within {timeout.TotalSeconds:0} s: simulated counters would time out here.");

    /// <summary>Valgrind could not run .NET.</summary>
    internal static string ProbeFailed(ValgrindInstallation valgrind, int exitCode, string lastWords) =>
        string.Create(CultureInfo.InvariantCulture, $"Valgrind {valgrind.Version} ({valgrind.Path}) could not run a small .NET program ")
        + string.Create(CultureInfo.InvariantCulture, $"(exit code {exitCode}; {Sentences.Unended(lastWords)}): simulated counters ")
        + $"cannot count here. Valgrind {ValgrindInstallation.MinimumVersion} or later runs .NET 10 with "
        + "DOTNET_EnableWriteXorExecute=0, which the workers set.";

    /// <summary>A simulated counter whose events callgrind was not simulating.</summary>
    internal static string NotSimulated(string counter) =>
        $"'{counter}' needs events callgrind did not simulate in this worker (--branch-sim=yes and --cache-sim=yes).";

    private static string Truncate(string text) => text.Length > 80 ? text[..80] + "…" : text;
}
