using Picollo.Counters;

namespace Picollo.Baselines.Records;

/// <summary>A baseline file's entry for one machine.</summary>
/// <param name="Machine">The machine the record was measured on; its <see cref="MachineFingerprint.Id"/> keys the entry.</param>
/// <param name="Record">
/// The measurement: the fastest level the recording saw, each time counter's recording with the spread of the other
/// levels (<c>TimeSpread</c>).
/// </param>
internal sealed record BaselineEntry(MachineFingerprint Machine, BaselineRecord Record)
{
    /// <summary>
    /// The entries a measurement of <paramref name="machine"/> is written as: the machine's, with every counter but the
    /// simulated ones, and the simulated machine's (<see cref="MachineFingerprint.ForSimulator"/>) with those, which any
    /// host with the same simulator and runtime shares (docs/COUNTERS.md, "Simulated counters"). A measurement without
    /// simulated counters is one entry; one with only those, the simulated machine's alone.
    /// </summary>
    /// <param name="machine">The host.</param>
    /// <param name="record">The measurement.</param>
    /// <returns>One or two entries, the host's first.</returns>
    public static IReadOnlyList<BaselineEntry> Split(MachineFingerprint machine, BaselineRecord record)
    {
        ArgumentNullException.ThrowIfNull(machine);
        ArgumentNullException.ThrowIfNull(record);
        BaselineCounter[] simulated = [.. record.Counters.Where(static c => c.Kind == CounterKind.Simulated)];
        if (simulated.Length == 0 || record.Simulator is not { } simulator)
            return [new BaselineEntry(machine, record)];

        BaselineCounter[] native = [.. record.Counters.Where(static c => c.Kind != CounterKind.Simulated)];
        var simulatedEntry = new BaselineEntry(
            MachineFingerprint.ForSimulator(simulator),
            new BaselineRecord(simulated, record.Options, record.RecordedUtc) { Simulator = simulator });
        return native.Length == 0 ? [simulatedEntry] : [new BaselineEntry(machine, record with { Counters = native }), simulatedEntry];
    }
}
