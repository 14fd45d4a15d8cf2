using System.Globalization;
using Picollo.Counters;

namespace Picollo.Baselines.Records;

/// <summary>Decides which baseline entries a counter may be compared with (docs/ARCHITECTURE.md, "Baselines and verdicts").</summary>
internal static class BaselinePortability
{
    /// <summary>The portability of a counter, from its kind and (for hardware events) its name.</summary>
    /// <param name="kind">The counter's source family.</param>
    /// <param name="name">The counter's canonical name, e.g. <c>instructions</c>.</param>
    /// <returns>
    /// <see cref="CounterPortability.SameRuntime"/> for <see cref="CounterKind.Runtime"/>;
    /// <see cref="CounterPortability.SameIsaAndRuntime"/> for hardware <c>instructions</c> and <c>branches</c>;
    /// <see cref="CounterPortability.SameClock"/> for the portable <c>clock</c>;
    /// <see cref="CounterPortability.SameCpuModel"/> for everything else (cycles, TSC, task-clock, misses, raw events).
    /// </returns>
    public static CounterPortability Of(CounterKind kind, string name)
    {
        return KnownCounters.Of(name, kind).Portability;
    }

    /// <summary>
    /// Whether a counter with <paramref name="portability"/> measured on <paramref name="baseline"/> compares with one
    /// measured on <paramref name="current"/>.
    /// </summary>
    /// <param name="portability">The counter's portability.</param>
    /// <param name="baseline">The machine of the baseline entry.</param>
    /// <param name="current">The machine of the current measurement.</param>
    /// <param name="reason">When not comparable, the first difference, e.g. <c>different CPU model (A vs B)</c>.</param>
    /// <returns><see langword="true"/> when comparable.</returns>
    public static bool IsComparable(
        CounterPortability portability, MachineFingerprint baseline, MachineFingerprint current, out string? reason)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(current);
        if (portability == CounterPortability.SameSimulator)
        {
            reason = SimulatorDifference(baseline, current);
            return reason is null;
        }

        reason =
            baseline.Architecture != current.Architecture ? $"different architecture ({baseline.Architecture} vs {current.Architecture})"
            : baseline.RuntimeMajorMinor != current.RuntimeMajorMinor
                ? $"different .NET runtime ({baseline.RuntimeMajorMinor} vs {current.RuntimeMajorMinor})"
            : baseline.GCMode != current.GCMode ? $"different GC mode ({baseline.GCMode} vs {current.GCMode})"
            : portability >= CounterPortability.SameIsaAndRuntime
                && !baseline.IsaExtensions.SequenceEqual(current.IsaExtensions, StringComparer.Ordinal)
                ? $"different ISA extensions ({string.Join(' ', baseline.IsaExtensions)} vs {string.Join(' ', current.IsaExtensions)})"
            : portability >= CounterPortability.SameCpuModel && baseline.CpuModel != current.CpuModel
                ? $"different CPU model ({baseline.CpuModel} vs {current.CpuModel})"
            : portability >= CounterPortability.SameCpuModel
                && baseline.TscMegahertz is { } before && current.TscMegahertz is { } now && before != now
                ? string.Create(CultureInfo.InvariantCulture, $"different clock (TSC {before:N0} vs {now:N0} MHz)")
            : portability >= CounterPortability.SameClock && baseline.OperatingSystem != current.OperatingSystem
                ? $"different OS for the clock counter ({baseline.OperatingSystem} vs {current.OperatingSystem})"
            : portability >= CounterPortability.SameClock
                && baseline.ClockHertz is { } rate && current.ClockHertz is { } rateNow && rate != rateNow
                ? string.Create(CultureInfo.InvariantCulture, $"different clock rate ({rate:N0} vs {rateNow:N0} Hz)")
            : null;
        return reason is null;
    }

    // Simulated counts compare between entries of the same simulated machine only: the same simulator version, runtime
    // version, architecture, instruction set and GC mode (MachineFingerprint.ForSimulator), whatever the host was.
    private static string? SimulatorDifference(MachineFingerprint baseline, MachineFingerprint current) =>
        !baseline.IsSimulated ? "not a simulated machine's entry"
        : baseline.CpuModel != current.CpuModel ? $"another simulator ({baseline.CpuModel} vs {current.CpuModel})"
        : baseline.Architecture != current.Architecture ? $"different architecture ({baseline.Architecture} vs {current.Architecture})"
        : baseline.RuntimeVersion != current.RuntimeVersion
            ? $"different .NET runtime ({baseline.RuntimeVersion} vs {current.RuntimeVersion})"
        : !baseline.IsaExtensions.SequenceEqual(current.IsaExtensions, StringComparer.Ordinal)
            ? $"different ISA extensions under simulation ({Isa(baseline)} vs {Isa(current)})"
        : baseline.GCMode != current.GCMode ? $"different GC mode ({baseline.GCMode} vs {current.GCMode})"
        : null;

    private static string Isa(MachineFingerprint machine) => string.Join(' ', machine.IsaExtensions);
}
