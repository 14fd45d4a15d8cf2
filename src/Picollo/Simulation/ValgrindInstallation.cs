using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using Picollo.Interop;

namespace Picollo.Simulation;

/// <summary>
/// Whether this machine can count simulated counters, and with which Valgrind (docs/COUNTERS.md, "Simulated counters"):
/// Linux on x86-64 (libpicollo_native issues the client requests), a <c>valgrind</c> of at least
/// <see cref="MinimumVersion"/> on the <c>PATH</c> (or named by <see cref="PathVariable"/>). Found once per process.
/// Whether Valgrind can run this .NET is learnt when a worker starts: a worker that ends before measuring says why.
/// </summary>
/// <param name="Path">The valgrind program, or <see langword="null"/> when there is none.</param>
/// <param name="Version">Its version, or <see langword="null"/>.</param>
/// <param name="UnavailableReason">Why simulated counters cannot count here, with the fix; <see langword="null"/> when they can.</param>
internal sealed record ValgrindInstallation(string? Path, Version? Version, string? UnavailableReason)
{
    /// <summary>The variable that names the valgrind program to use instead of the one on the <c>PATH</c>.</summary>
    public const string PathVariable = "PICOLLO_VALGRIND";

    /// <summary>The oldest Valgrind the simulated counters were tested with (Debian 12's): it runs .NET 10.</summary>
    public static readonly Version MinimumVersion = new(3, 19);

    // Found once per value of the variables that decide it: valgrind --version takes a process start.
    private static readonly Dictionary<(string?, string?), ValgrindInstallation> s_found = [];

    /// <summary>This machine's, found once per process.</summary>
    public static ValgrindInstallation Current => For(Environment.GetEnvironmentVariable);

    /// <summary>
    /// The installation <paramref name="getEnvironmentVariable"/> points at (<see cref="PathVariable"/>, <c>PATH</c>), found once
    /// per pair of their values.
    /// </summary>
    /// <param name="getEnvironmentVariable">The environment.</param>
    /// <returns>The installation, or why there is none.</returns>
    public static ValgrindInstallation For(Func<string, string?> getEnvironmentVariable)
    {
        ArgumentNullException.ThrowIfNull(getEnvironmentVariable);
        (string?, string?) key = (getEnvironmentVariable(PathVariable), getEnvironmentVariable("PATH"));
        lock (s_found)
        {
            if (!s_found.TryGetValue(key, out ValgrindInstallation? found))
                s_found[key] = found = Find(getEnvironmentVariable);
            return found;
        }
    }

    /// <summary>Whether simulated counters can count here.</summary>
    public bool IsAvailable => UnavailableReason is null;

    /// <summary>Finds valgrind and checks what the simulated counters need.</summary>
    /// <param name="getEnvironmentVariable">The environment (<c>PATH</c>, <see cref="PathVariable"/>).</param>
    /// <returns>The installation, or why there is none.</returns>
    public static ValgrindInstallation Find(Func<string, string?> getEnvironmentVariable)
    {
        ArgumentNullException.ThrowIfNull(getEnvironmentVariable);
        if (!OperatingSystem.IsLinux())
            return new(null, null, SimulationMessages.NotLinux(RuntimeInformation.OSDescription));
        if (RuntimeInformation.ProcessArchitecture != Architecture.X64)
            return new(null, null, SimulationMessages.NotX64(RuntimeInformation.ProcessArchitecture.ToString()));
        if (PicolloNative.Status.FailureReason is { } native)
            return new(null, null, SimulationMessages.NativeLibraryMissing(native));

        string? chosen = getEnvironmentVariable(PathVariable);
        string? path = chosen is { Length: > 0 } ? chosen : OnPath("valgrind", getEnvironmentVariable("PATH"));
        if (path is null || !File.Exists(path))
        {
            string? named = chosen is { Length: > 0 } ? PathVariable + "=" + chosen : null;
            return new(null, null, SimulationMessages.ValgrindMissing(named, MinimumVersion));
        }

        (Version? version, string? problem) = ReadVersion(path);
        if (version is null)
            return new(path, null, SimulationMessages.ValgrindVersionUnreadable(path, problem!));
        return version < MinimumVersion
            ? new(path, version, SimulationMessages.ValgrindTooOld(path, version, MinimumVersion))
            : new(path, version, null);
    }

    /// <summary>Reads the version <c>valgrind --version</c> prints (<c>valgrind-3.19.0</c>).</summary>
    /// <param name="text">What it printed.</param>
    /// <returns>The version, or <see langword="null"/> when the text is not one.</returns>
    public static Version? ParseVersion(string text)
    {
        string trimmed = text.Trim();
        int dash = trimmed.LastIndexOf('-');
        string number = dash >= 0 ? trimmed[(dash + 1)..] : trimmed;

        // Distributions append their own suffix ("3.22.0.GIT", "3.19.0-r1"): the leading digits and dots only.
        int end = 0;
        while (end < number.Length && (char.IsAsciiDigit(number[end]) || number[end] == '.'))
            end++;
        return Version.TryParse(number[..end].TrimEnd('.'), out Version? version) ? version : null;
    }

    private static (Version? Version, string? Problem) ReadVersion(string path)
    {
        try
        {
            using var process = new Process
            {
                StartInfo = new ProcessStartInfo(path, "--version")
                {
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                    UseShellExecute = false,
                },
            };
            process.Start();
            string output = process.StandardOutput.ReadToEnd();
            if (!process.WaitForExit(TimeSpan.FromSeconds(10)))
            {
                process.Kill();
                return (null, "it did not answer --version within 10 s");
            }

            return ParseVersion(output) is { } version
                ? (version, null)
                : (null, string.Create(CultureInfo.InvariantCulture, $"--version printed '{output.Trim()}' ")
                    + string.Create(CultureInfo.InvariantCulture, $"(exit code {process.ExitCode})"));
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or IOException)
        {
            return (null, e.Message);
        }
    }

    private static string? OnPath(string program, string? pathVariable)
    {
        string[] folders = (pathVariable ?? "/usr/local/bin:/usr/bin:/bin")
            .Split(System.IO.Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries);
        foreach (string folder in folders)
        {
            string candidate = System.IO.Path.Combine(folder, program);
            if (File.Exists(candidate))
                return candidate;
        }

        return null;
    }
}
