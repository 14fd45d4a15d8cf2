namespace Picollo.Measurement.Simulated;

/// <summary>The simulated-counter measurer of the current async flow (<see cref="ISimulatedMeasurer"/>).</summary>
internal static class SimulatedMeasurers
{
    private static readonly AsyncLocal<ISimulatedMeasurer?> s_current = new();

    /// <summary>The measurer, or <see langword="null"/> outside a perf test: simulated counters are then unavailable.</summary>
    /// <remarks>
    /// Set only by the running test's context (<c>PerfTestContext.Enter</c>, in Testing), which restores it when the test
    /// ends; <c>PerfTestContextTests</c> checks the sources for any other writer.
    /// </remarks>
    public static ISimulatedMeasurer? Current
    {
        get => s_current.Value;
        internal set => s_current.Value = value;
    }
}
