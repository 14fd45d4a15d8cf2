using System.Globalization;

namespace Picollo.PerfEvents;

/// <summary>
/// What the diagnostics need to know about this machine to name the exact remedy: the paranoid level, whether a CPU
/// PMU exists, the open-file limits and the host executable to grant capabilities to. Read once per process.
/// </summary>
/// <param name="ParanoidLevel">
/// The value of /proc/sys/kernel/perf_event_paranoid, <see langword="null"/> when absent (no perf events in this kernel, or not Linux).
/// </param>
/// <param name="HasCpuPmu">Whether sysfs lists a CPU PMU.</param>
/// <param name="PmuNames">The PMUs sysfs lists, for reports.</param>
/// <param name="OpenFilesSoftLimit">The soft "Max open files" of /proc/self/limits (<c>ulimit -n</c>), or <see langword="null"/>.</param>
/// <param name="OpenFilesHardLimit">The hard "Max open files" of /proc/self/limits, or <see langword="null"/>.</param>
/// <param name="HostPath">The executable running this process (the dotnet host or an apphost), symlinks resolved.</param>
/// <param name="IsPrivileged">Whether the process holds CAP_PERFMON or CAP_SYS_ADMIN, which bypass the paranoid level.</param>
internal sealed record PerfSystemFacts(
    int? ParanoidLevel,
    bool HasCpuPmu,
    IReadOnlyList<string> PmuNames,
    string? OpenFilesSoftLimit,
    string? OpenFilesHardLimit,
    string HostPath,
    bool IsPrivileged = false)
{
    private const int CapSysAdmin = 21;
    private const int CapPerfmon = 38;

    internal const string ParanoidPath = "/proc/sys/kernel/perf_event_paranoid";

    private static readonly Lazy<PerfSystemFacts> s_current = new(Read);

    /// <summary>This process's facts, read on first use.</summary>
    internal static PerfSystemFacts Current => s_current.Value;

    /// <summary>Parses perf_event_paranoid (an integer, possibly negative).</summary>
    internal static int? ParseParanoid(string? text) =>
        int.TryParse(text?.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int level) ? level : null;

    /// <summary>Extracts the soft and hard "Max open files" columns of /proc/self/limits.</summary>
    internal static (string? Soft, string? Hard) ParseOpenFilesLimit(string? limits)
    {
        foreach (string line in (limits ?? "").Split('\n'))
        {
            if (!line.StartsWith("Max open files", StringComparison.Ordinal))
                continue;
            string[] columns = line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return columns.Length >= 2 ? (columns[0], columns[1]) : (null, null);
        }

        return (null, null);
    }

    /// <summary>Whether the CapEff line of /proc/self/status holds CAP_PERFMON or CAP_SYS_ADMIN.</summary>
    internal static bool ParseIsPrivileged(string? status)
    {
        foreach (string line in (status ?? "").Split('\n'))
        {
            if (line.StartsWith("CapEff:", StringComparison.Ordinal)
                && ulong.TryParse(
                    line.AsSpan("CapEff:".Length).Trim(),
                    NumberStyles.AllowHexSpecifier,
                    CultureInfo.InvariantCulture,
                    out ulong effective))
                return (effective & (1UL << CapPerfmon | 1UL << CapSysAdmin)) != 0;
        }

        return false;
    }

    private static PerfSystemFacts Read()
    {
        IReadOnlyList<PerfPmu> pmus = PerfPmu.All;
        (string? soft, string? hard) = ParseOpenFilesLimit(TryRead("/proc/self/limits"));
        return new PerfSystemFacts(
            OperatingSystem.IsLinux() ? ParseParanoid(TryRead(ParanoidPath)) : null,
            PerfPmu.HasCpuPmuIn(pmus),
            [.. pmus.Select(static p => p.Name)],
            soft,
            hard,
            ResolveHostPath(),
            ParseIsPrivileged(TryRead("/proc/self/status")));
    }

    private static string ResolveHostPath()
    {
        string? path = Environment.ProcessPath;
        if (path is null)
            return "<path to dotnet>";
        try
        {
            // setcap must target the real file, not the /usr/bin/dotnet symlink.
            return new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? path;
        }
        catch (IOException)
        {
            return path;
        }
    }

    private static string? TryRead(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
