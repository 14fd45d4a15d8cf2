using System.Globalization;
using System.Text;
using Picollo.Baselines.Records;

namespace Picollo.Baselines.Storage;

/// <summary>
/// The reference speeds this machine showed recently (docs/VERDICTS.md, "Recording a baseline"): the core loop, the
/// branchy and the allocation references of the last <see cref="JudgementPolicy.SpeedMemoryCapacity"/> judged
/// measurements, kept per machine id in the user's cache folder. A recording compares its references with the fastest
/// remembered and measures again while it sits in a slower level: a baseline recorded in a slow level sees less for as
/// long as it is used.
/// </summary>
/// <remarks>
/// A process's readings are written once, when it exits (<see cref="WriteRemembered"/>), merged into what other processes
/// wrote meanwhile: a suite of a hundred perf tests rewrote the file a hundred times, once per judgement. Until then this
/// process's own loads see them.
/// </remarks>
/// <remarks>
/// A memory, not a baseline: nothing in the repository, nothing a verdict compares with. A machine that is new to it (a
/// fresh CI runner) has none and records as before. Readings age out as new ones come, so a host that became slower for
/// good stops being compared with its old self after <see cref="JudgementPolicy.SpeedMemoryCapacity"/> measurements. A
/// folder that cannot be read or written is no memory; it never fails a test.
/// </remarks>
internal sealed class MachineSpeedMemory
{
    /// <summary>The variable that moves the cache folder (default <c>$XDG_CACHE_HOME/picollo</c>, else <c>~/.cache/picollo</c>).</summary>
    public const string FolderVariable = "PICOLLO_CACHE_DIR";

    private readonly string? _path;

    // This process's readings not yet written, per memory file, oldest first, and the most readings of each kind the file
    // keeps: written when the process exits.
    private static readonly Dictionary<string, (int Capacity, List<(string Kind, double Value)> Readings)> Unwritten =
        new(StringComparer.Ordinal);
    private static bool s_writesAtExit;

    // How many readings are kept, and how many say something (JudgementPolicy.SpeedMemoryCapacity, SpeedMemoryMinimumReadings).
    private readonly JudgementPolicy _judgement;

    private MachineSpeedMemory(
        string? path, JudgementPolicy judgement, IReadOnlyList<double> core, IReadOnlyList<double> allocation, IReadOnlyList<double> branch)
    {
        _path = path;
        _judgement = judgement;
        Core = core;
        Allocation = allocation;
        Branch = branch;
    }

    /// <summary>Gets the memory's file, or <see langword="null"/> when no folder is named.</summary>
    internal string? FilePath => _path;

    /// <summary>The core reference loop's recent readings, ns per 1,000 steps, oldest first.</summary>
    public IReadOnlyList<double> Core { get; }

    /// <summary>The allocation reference's recent readings, ns per allocation, oldest first.</summary>
    public IReadOnlyList<double> Allocation { get; }

    /// <summary>The branchy reference's recent readings, ns per 1,000 characters, oldest first.</summary>
    public IReadOnlyList<double> Branch { get; }

    /// <summary>
    /// The fastest branchy reading remembered, or <see langword="null"/> with fewer than
    /// <see cref="JudgementPolicy.SpeedMemoryMinimumReadings"/>.
    /// </summary>
    public double? FastestBranch => Fastest(Branch);

    /// <summary>
    /// The fastest core reading remembered, or <see langword="null"/> with fewer than
    /// <see cref="JudgementPolicy.SpeedMemoryMinimumReadings"/>.
    /// </summary>
    public double? FastestCore => Fastest(Core);

    /// <summary>
    /// The fastest allocation reading remembered, or <see langword="null"/> with fewer than
    /// <see cref="JudgementPolicy.SpeedMemoryMinimumReadings"/>.
    /// </summary>
    public double? FastestAllocation => Fastest(Allocation);

    /// <summary>The memory of <paramref name="machineId"/>, empty when there is none or its folder cannot be read.</summary>
    /// <param name="machineId">The machine's fingerprint id.</param>
    /// <param name="getEnvironmentVariable">
    /// An environment seam (<see cref="BaselineStoreOptions.GetEnvironmentVariable"/>): then only its
    /// <see cref="FolderVariable"/> or <c>XDG_CACHE_HOME</c> names a folder, so a test's judgements never share the user's
    /// memory; <see langword="null"/> for the process environment, with the home folder as the last resort.
    /// </param>
    /// <param name="judgement">How many readings are kept and say something; <see cref="JudgementPolicy.Default"/> when
    /// <see langword="null"/>.</param>
    /// <returns>The memory.</returns>
    public static MachineSpeedMemory Load(
        string machineId, Func<string, string?>? getEnvironmentVariable, JudgementPolicy? judgement = null)
    {
        ArgumentNullException.ThrowIfNull(machineId);
        judgement ??= JudgementPolicy.Default;
        string? path = Folder(getEnvironmentVariable) is { } folder ? Path.Combine(folder, SafeName(machineId) + ".speeds") : null;
        List<(string Kind, double Value)> readings = path is null ? [] : ReadFile(path);
        if (path is not null)
        {
            lock (Unwritten)
                readings.AddRange(Unwritten.TryGetValue(path, out var unwritten) ? unwritten.Readings : []);
        }

        return new MachineSpeedMemory(path, judgement, Of(readings, CoreLine), Of(readings, AllocationLine), Of(readings, BranchLine))
            .Trimmed();
    }

    /// <summary>
    /// Writes the readings this process remembered into their files, merged with what other processes wrote meanwhile:
    /// runs when the process exits; a folder that refuses it is ignored.
    /// </summary>
    /// <param name="path">The one memory file to write, or <see langword="null"/> for every file.</param>
    internal static void WriteRemembered(string? path = null)
    {
        KeyValuePair<string, (int Capacity, List<(string Kind, double Value)> Readings)>[] unwritten;
        lock (Unwritten)
        {
            unwritten = [.. Unwritten.Where(u => path is null || u.Key == path)];
            foreach (string file in unwritten.Select(static u => u.Key))
                Unwritten.Remove(file);
        }

        foreach ((string file, (int capacity, List<(string Kind, double Value)> readings)) in unwritten)
        {
            List<(string Kind, double Value)> merged = ReadFile(file);
            merged.AddRange(readings);
            WriteFile(file, merged, capacity);
        }
    }

    private const string CoreLine = "core";
    private const string AllocationLine = "allocation";
    private const string BranchLine = "branch";

    // One reading per line: "core 1078.5", "allocation 6.31" or "branch 412.7"; anything else is skipped, not trusted. A file
    // that cannot be read is no memory: recording goes on as on a machine seen for the first time.
    private static List<(string Kind, double Value)> ReadFile(string path)
    {
        var readings = new List<(string Kind, double Value)>();
        try
        {
            if (!File.Exists(path))
                return readings;
            foreach (string line in File.ReadLines(path))
            {
                string[] parts = line.Split(' ', 2);
                if (parts.Length == 2 && parts[0] is CoreLine or AllocationLine or BranchLine
                    && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out double value)
                    && value > 0 && double.IsFinite(value))
                {
                    readings.Add((parts[0], value));
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            readings.Clear();
        }

        return readings;
    }

    private static List<double> Of(List<(string Kind, double Value)> readings, string kind) =>
        [.. readings.Where(r => r.Kind == kind).Select(static r => r.Value)];

    // Each kind's newest readings, as many as the memory keeps (JudgementPolicy.SpeedMemoryCapacity).
    private MachineSpeedMemory Trimmed()
    {
        int capacity = _judgement.SpeedMemoryCapacity;
        IReadOnlyList<double> Newest(IReadOnlyList<double> r) => r.Count > capacity ? [.. r.Skip(r.Count - capacity)] : r;
        return new MachineSpeedMemory(_path, _judgement, Newest(Core), Newest(Allocation), Newest(Branch));
    }

    private static void WriteFile(string path, List<(string Kind, double Value)> readings, int capacity)
    {
        // The newest readings of each kind: the file stays as small as the memory.
        var text = new StringBuilder();
        foreach (string kind in (string[])[CoreLine, AllocationLine, BranchLine])
        {
            foreach (double value in Of(readings, kind).TakeLast(capacity))
                text.Append(CultureInfo.InvariantCulture, $"{kind} {value:R}\n");
        }

        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);

            // Another test process may write at the same time: each writes whole and renames, the last one wins, which
            // loses at most that process's readings.
            string temp = $"{path}.{Environment.ProcessId}.tmp";
            File.WriteAllText(temp, text.ToString());
            File.Move(temp, path, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A read-only home (a container): no memory, nothing lost.
        }
    }

    /// <summary>
    /// Adds a measurement's readings; they are written when the process exits (<see cref="WriteRemembered"/>), and this
    /// process's later loads see them.
    /// </summary>
    /// <param name="record">The measurement.</param>
    /// <returns>The memory with the readings.</returns>
    public MachineSpeedMemory Remember(BaselineRecord record)
    {
        ArgumentNullException.ThrowIfNull(record);
        (string Kind, double? Value)[] taken =
            [(CoreLine, record.MachineSpeed), (AllocationLine, record.AllocationSpeed), (BranchLine, record.BranchSpeed)];
        (string Kind, double Value)[] readings =
            [.. taken.Where(static t => t.Value is > 0 && double.IsFinite(t.Value.Value)).Select(static t => (t.Kind, t.Value!.Value))];
        if (_path is not null)
        {
            lock (Unwritten)
            {
                (int capacity, List<(string Kind, double Value)> unwritten) = Unwritten.GetValueOrDefault(_path, (0, []));
                unwritten.AddRange(readings);
                Unwritten[_path] = (Math.Max(capacity, _judgement.SpeedMemoryCapacity), unwritten);
                if (!s_writesAtExit)
                {
                    s_writesAtExit = true;
                    AppDomain.CurrentDomain.ProcessExit += static (_, _) => WriteRemembered();
                }
            }
        }

        List<(string Kind, double Value)> all =
        [
            .. Core.Select(static v => (CoreLine, v)),
            .. Allocation.Select(static v => (AllocationLine, v)),
            .. Branch.Select(static v => (BranchLine, v)),
            .. readings,
        ];
        return new MachineSpeedMemory(_path, _judgement, Of(all, CoreLine), Of(all, AllocationLine), Of(all, BranchLine)).Trimmed();
    }

    /// <summary>
    /// How much slower than this machine's fastest remembered level <paramref name="record"/> ran, as the largest ratio of
    /// its references over the fastest (1.7 = 70 % slower); 1 when there is nothing to compare.
    /// </summary>
    /// <param name="record">A measurement.</param>
    /// <returns>The ratio, at least 1.</returns>
    public double SlowerThanFastest(BaselineRecord record)
    {
        ArgumentNullException.ThrowIfNull(record);
        double ratio = 1;
        if (FastestCore is { } core && record.MachineSpeed is > 0)
            ratio = Math.Max(ratio, record.MachineSpeed.Value / core);
        if (FastestAllocation is { } allocation && record.AllocationSpeed is > 0)
            ratio = Math.Max(ratio, record.AllocationSpeed.Value / allocation);
        if (FastestBranch is { } branch && record.BranchSpeed is > 0)
            ratio = Math.Max(ratio, record.BranchSpeed.Value / branch);
        return ratio;
    }

    private double? Fastest(IReadOnlyList<double> readings) =>
        readings.Count >= _judgement.SpeedMemoryMinimumReadings ? readings.Min() : null;

    private static string? Folder(Func<string, string?>? seam)
    {
        Func<string, string?> getEnvironmentVariable = seam ?? Environment.GetEnvironmentVariable;
        if (getEnvironmentVariable(FolderVariable) is { Length: > 0 } own)
            return own;
        if (getEnvironmentVariable("XDG_CACHE_HOME") is { Length: > 0 } cache)
            return Path.Combine(cache, "picollo");
        if (seam is not null)
            return null;
        string home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        return home.Length > 0 ? Path.Combine(home, ".cache", "picollo") : null;
    }

    private static string SafeName(string machineId) =>
        string.Concat(machineId.Select(static c => char.IsLetterOrDigit(c) || c is '.' or '-' or '_' ? c : '_'));
}
