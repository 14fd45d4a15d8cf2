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
        var core = new List<double>();
        var allocation = new List<double>();
        var branch = new List<double>();
        try
        {
            if (path is not null && File.Exists(path))
            {
                // One reading per line: "core 1078.5", "allocation 6.31" or "branch 412.7"; anything else is skipped, not trusted.
                foreach (string line in File.ReadLines(path))
                {
                    string[] parts = line.Split(' ', 2);
                    if (parts.Length == 2 && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out double value)
                        && value > 0 && double.IsFinite(value))
                    {
                        (parts[0] switch { "core" => core, "allocation" => allocation, "branch" => branch, _ => null })?.Add(value);
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // No memory: recording goes on as on a machine seen for the first time.
        }

        return new MachineSpeedMemory(path, judgement, core, allocation, branch);
    }

    /// <summary>Adds a measurement's readings and writes the memory back; a folder that refuses it is ignored.</summary>
    /// <param name="record">The measurement.</param>
    /// <returns>The memory with the readings.</returns>
    public MachineSpeedMemory Remember(BaselineRecord record)
    {
        ArgumentNullException.ThrowIfNull(record);
        List<double> core = Append(Core, record.MachineSpeed);
        List<double> allocation = Append(Allocation, record.AllocationSpeed);
        List<double> branch = Append(Branch, record.BranchSpeed);
        var updated = new MachineSpeedMemory(_path, _judgement, core, allocation, branch);
        if (_path is null)
            return updated;

        var text = new StringBuilder();
        foreach (double value in core)
            text.Append(CultureInfo.InvariantCulture, $"core {value:R}\n");
        foreach (double value in allocation)
            text.Append(CultureInfo.InvariantCulture, $"allocation {value:R}\n");
        foreach (double value in branch)
            text.Append(CultureInfo.InvariantCulture, $"branch {value:R}\n");
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(_path)!);

            // Another test process may write at the same time: each writes whole and renames, the last one wins, which
            // loses at most a reading.
            string temp = $"{_path}.{Environment.ProcessId}.tmp";
            File.WriteAllText(temp, text.ToString());
            File.Move(temp, _path, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A read-only home (a container): no memory, nothing lost.
        }

        return updated;
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

    private List<double> Append(IReadOnlyList<double> readings, double? value)
    {
        var list = readings.ToList();
        if (value is > 0 && double.IsFinite(value.Value))
            list.Add(value.Value);
        int capacity = _judgement.SpeedMemoryCapacity;
        return list.Count > capacity ? list[^capacity..] : list;
    }

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
