namespace Picollo.Baselines;

/// <summary>A baseline file's entry for one machine.</summary>
/// <param name="Machine">The machine the record was measured on; its <see cref="MachineFingerprint.Id"/> keys the entry.</param>
/// <param name="Record">
/// The measurement: the fastest level the recording saw, each time counter's recording with the spread of the other
/// levels (<see cref="TimeSpread"/>).
/// </param>
internal sealed record BaselineEntry(MachineFingerprint Machine, BaselineRecord Record)
{
    /// <summary>The recorded counter a verdict of this entry was judged against.</summary>
    /// <param name="verdict">A verdict compared with this entry.</param>
    /// <returns>The counter, or <see langword="null"/> when the entry does not hold it.</returns>
    public BaselineCounter? CounterFor(CounterVerdict verdict)
    {
        ArgumentNullException.ThrowIfNull(verdict);
        return Record.Find(verdict.Counter);
    }
}
