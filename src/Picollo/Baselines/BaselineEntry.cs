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

    /// <summary>
    /// The recorded counter a verdict of this entry was judged against: the one of the process level it names
    /// (<see cref="CounterVerdict.ProcessLevel"/>), else the entry's own record's (a level lacking a counter was judged
    /// with the entry's).
    /// </summary>
    /// <param name="verdict">A verdict compared with this entry.</param>
    /// <returns>The counter, or <see langword="null"/> when neither holds it.</returns>
    public BaselineCounter? CounterFor(CounterVerdict verdict)
    {
        ArgumentNullException.ThrowIfNull(verdict);
        BaselineRecord record = verdict.ProcessLevel is int level && level >= 2 && level - 2 < Levels.Count ? Levels[level - 2] : Record;
        return record.Find(verdict.Counter) ?? Record.Find(verdict.Counter);
    }
}
