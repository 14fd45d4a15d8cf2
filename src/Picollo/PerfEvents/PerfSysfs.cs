namespace Picollo.PerfEvents;

/// <summary>
/// Read-only access to the perf event sources the kernel publishes in sysfs
/// (<c>/sys/bus/event_source/devices/&lt;pmu&gt;/{type,format/*,events/*}</c>). Every sysfs read of the catalog
/// and of PMU discovery goes through here so tests can point it at a fake tree in a temporary folder.
/// </summary>
internal sealed class PerfSysfs
{
    /// <summary>Where the kernel lists its event sources.</summary>
    internal const string DefaultRoot = "/sys/bus/event_source/devices";

    /// <summary>The real sysfs tree of this machine.</summary>
    internal static PerfSysfs Default { get; } = new(DefaultRoot);

    /// <summary>Creates a reader rooted at <paramref name="root"/>.</summary>
    /// <param name="root">The folder holding one sub-folder per PMU.</param>
    internal PerfSysfs(string root) => Root = root;

    /// <summary>The folder holding one sub-folder per PMU.</summary>
    internal string Root { get; }

    /// <summary>The PMU folder names, ordinally sorted; empty when the root does not exist (non-Linux, no sysfs).</summary>
    internal IReadOnlyList<string> GetPmuNames()
    {
        // The kernel's entries are symlinks to /sys/devices/<pmu>; the enumeration follows them.
        if (!Directory.Exists(Root))
            return [];
        string[] names = [.. Directory.EnumerateDirectories(Root).Select(Path.GetFileName).OfType<string>()];
        Array.Sort(names, StringComparer.Ordinal);
        return names;
    }

    /// <summary>The file names in <c>&lt;pmu&gt;/&lt;folder&gt;</c>, ordinally sorted; empty when the folder is absent.</summary>
    /// <param name="pmu">The PMU folder name.</param>
    /// <param name="folder">A sub-folder such as <c>format</c> or <c>events</c>.</param>
    internal IReadOnlyList<string> GetFileNames(string pmu, string folder)
    {
        string path = Path.Combine(Root, pmu, folder);
        if (!Directory.Exists(path))
            return [];
        string[] names = [.. Directory.EnumerateFiles(path).Select(Path.GetFileName).OfType<string>()];
        Array.Sort(names, StringComparer.Ordinal);
        return names;
    }

    /// <summary>The trimmed content of <c>&lt;pmu&gt;/&lt;relativePath&gt;</c>, or <see langword="null"/> when it cannot be read.</summary>
    /// <param name="pmu">The PMU folder name.</param>
    /// <param name="relativePath">A path inside the PMU folder, e.g. <c>type</c> or <c>events/cycles-ct</c>.</param>
    internal string? ReadText(string pmu, string relativePath)
    {
        try
        {
            return File.ReadAllText(Path.Combine(Root, pmu, relativePath)).Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Missing files are the normal case (most events have no .scale); unreadable ones are treated alike.
            return null;
        }
    }
}
