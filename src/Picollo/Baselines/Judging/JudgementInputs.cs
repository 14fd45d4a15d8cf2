using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;

namespace Picollo.Baselines.Judging;

/// <summary>
/// What a judgement decides from besides its evidence, read once before it starts: the baseline (the store holds it,
/// read once), the options and their policy, this machine, and the machine's speed memory.
/// </summary>
/// <param name="BaselinePath">The baseline file's path.</param>
/// <param name="FolderProblem">Why the baseline folder cannot be used, or <see langword="null"/>.</param>
/// <param name="Options">How the baseline is judged and written.</param>
/// <param name="Store">The store, holding the baseline as read; only the driver writes through it.</param>
/// <param name="Machine">This machine.</param>
/// <param name="SpeedMemory">The machine's recent reference speeds, which a recording compares with.</param>
/// <param name="Baseline">
/// The baseline as the judgement found it, or <see langword="null"/> when there is none or its folder cannot be used: what
/// the report shows the measurement was compared with, even after an update wrote the file.
/// </param>
internal sealed record JudgementInputs(
    string BaselinePath,
    string? FolderProblem,
    BaselineStoreOptions Options,
    BaselineStore Store,
    MachineFingerprint Machine,
    MachineSpeedMemory SpeedMemory,
    BaselineFile? Baseline)
{
    /// <summary>Reads the inputs of a judgement of the baseline at <paramref name="baselinePath"/>.</summary>
    /// <param name="baselinePath">The baseline file's path.</param>
    /// <param name="folderProblem">Why the baseline folder cannot be used, or <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written.</param>
    /// <returns>The inputs.</returns>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    public static JudgementInputs Read(string baselinePath, string? folderProblem, BaselineStoreOptions options)
    {
        var store = new BaselineStore(options);
        BaselineFile? baseline = folderProblem is null ? store.ReadOnce(Path.GetFullPath(baselinePath)) : null;
        MachineFingerprint machine = MachineFingerprint.Current;
        MachineSpeedMemory memory = MachineSpeedMemory.Load(machine.Id, options.GetEnvironmentVariable, options.VerdictPolicy.Judgement);
        return new JudgementInputs(baselinePath, folderProblem, options, store, machine, memory, baseline);
    }
}
