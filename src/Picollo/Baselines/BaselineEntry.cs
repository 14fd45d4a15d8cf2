namespace Picollo.Baselines;

/// <summary>A baseline file's entry for one machine.</summary>
/// <param name="Machine">The machine the record was measured on; its <see cref="MachineFingerprint.Id"/> keys the entry.</param>
/// <param name="Record">The measurement.</param>
internal sealed record BaselineEntry(MachineFingerprint Machine, BaselineRecord Record);
