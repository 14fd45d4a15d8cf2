using System.Collections.Immutable;

namespace Picollo.Measurement.Simulated;

/// <summary>
/// What simulated counts depend on, and so what a baseline of them is keyed by (docs/COUNTERS.md, "Simulated counters"):
/// not the host's CPU model or speed, but the simulator, the runtime that generated the code, and the machine the JIT
/// generated it for, which under Valgrind is Valgrind's synthetic CPU (its instruction-set extensions, not the host's).
/// </summary>
/// <param name="Tool">The simulator and its version, e.g. <c>callgrind 3.19.0</c>.</param>
/// <param name="Architecture">The process architecture, e.g. <c>X64</c>.</param>
/// <param name="IsaExtensions">The instruction-set extensions the runtime saw under the simulator, sorted.</param>
/// <param name="RuntimeVersion">The .NET runtime version that ran the body, e.g. <c>10.0.12</c>.</param>
/// <param name="IsServerGC">Whether the server GC ran.</param>
/// <param name="IsConcurrentGC">Whether background GC was on.</param>
internal sealed record SimulatorInfo(
    string Tool,
    string Architecture,
    ImmutableArray<string> IsaExtensions,
    string RuntimeVersion,
    bool IsServerGC,
    bool IsConcurrentGC)
{
    /// <inheritdoc/>
    public bool Equals(SimulatorInfo? other) =>
        other is not null && Tool == other.Tool && Architecture == other.Architecture
        && IsaExtensions.SequenceEqual(other.IsaExtensions, StringComparer.Ordinal) && RuntimeVersion == other.RuntimeVersion
        && IsServerGC == other.IsServerGC && IsConcurrentGC == other.IsConcurrentGC;

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Tool, Architecture, string.Join(',', IsaExtensions), RuntimeVersion);

    /// <inheritdoc/>
    public override string ToString() =>
        $"{Tool}, {Architecture} ({string.Join(' ', IsaExtensions)}), .NET {RuntimeVersion}, "
        + $"GC {(IsServerGC ? "server" : "workstation")}{(IsConcurrentGC ? ", concurrent" : ", non-concurrent")}";
}
