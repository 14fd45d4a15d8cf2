namespace Picollo.Baselines;

/// <summary>A baseline file's entry for one machine.</summary>
/// <param name="Machine">The machine the record was measured on; its <see cref="MachineFingerprint.Id"/> keys the entry.</param>
/// <param name="Record">The measurement.</param>
internal sealed record BaselineEntry(MachineFingerprint Machine, BaselineRecord Record)
{
    /// <summary>
    /// Recordings of the same code on the same machine in other processes whose time sat at another level
    /// (<see cref="ProcessLevels"/>): a short branchy body can run at one of two speeds per process, fixed when the process
    /// lays its code out. Verdicts judge time against the nearest of <see cref="Record"/> and these. Empty for an entry
    /// recorded in one process.
    /// </summary>
    public IReadOnlyList<BaselineRecord> Levels { get; init; } = [];
}
