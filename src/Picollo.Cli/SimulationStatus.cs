namespace Picollo.Cli;

/// <summary>What <c>picollo doctor</c> found about simulated counters (docs/COUNTERS.md, "Simulated counters").</summary>
/// <param name="Valgrind">The valgrind program, or <see langword="null"/> when there is none.</param>
/// <param name="Version">Its version, or <see langword="null"/>.</param>
/// <param name="Counts">Whether simulated counters count here: Valgrind found and running a .NET program under callgrind.</param>
/// <param name="ProbeSeconds">How long the .NET program took under Valgrind; <see langword="null"/> when it was not started.</param>
/// <param name="Reason">Why they do not count, with the fix; <see langword="null"/> when they do.</param>
internal sealed record SimulationStatus(string? Valgrind, string? Version, bool Counts, double? ProbeSeconds, string? Reason);
