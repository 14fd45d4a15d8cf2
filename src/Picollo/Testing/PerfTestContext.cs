using Picollo.Assertions;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;

namespace Picollo.Testing;

/// <summary>
/// The perf test running in the current async flow (a test and everything it awaits or starts), as one ambient value
///: its <see cref="PerfContext"/> (the test, its options and its cancellation), the host its assertions report
/// to and its assertion scope. <see cref="Enter"/> sets it, with the ambient values of the lower layers that cannot see
/// this type (<see cref="PerfAssertionHost.Current"/>, <see cref="PerfAssertionScope.Current"/>,
/// <see cref="MeasurementCancellation.Current"/>, <see cref="SimulatedMeasurers.Current"/>), and restores all of them when
/// the test ends: nothing else writes them.
/// </summary>
internal sealed class PerfTestContext
{
    private static readonly AsyncLocal<PerfTestContext?> s_current = new();

    private PerfTestContext(PerfContext perf, IPerfAssertionHost host, PerfAssertionScope scope)
    {
        Perf = perf;
        Host = host;
        Scope = scope;
    }

    /// <summary>The context of the current flow, or <see langword="null"/> outside a perf test.</summary>
    public static PerfTestContext? Current => s_current.Value;

    /// <summary>The test's <see cref="PerfContext"/>, also <see cref="PerfContext.Current"/>.</summary>
    public PerfContext Perf { get; }

    /// <summary>The host the test's assertions report to (the adapter's, through the unavailable-counter policy).</summary>
    public IPerfAssertionHost Host { get; }

    /// <summary>The test's assertion scope: its names, the assertions that ran, the results judged.</summary>
    public PerfAssertionScope Scope { get; }

    /// <summary>The test being run; the <see cref="PerfContext"/>'s, so the two cannot disagree.</summary>
    public PerfTestDescriptor Test => Perf.Test;

    /// <summary>
    /// The test's cancellation, which the engine observes (<see cref="MeasurementCancellation"/>); the
    /// <see cref="PerfContext"/>'s, so the two cannot disagree.
    /// </summary>
    public CancellationToken CancellationToken => Perf.CancellationToken;

    /// <summary>
    /// Makes a test's context the current flow's, with its host, scope and cancellation, until the returned scope is
    /// disposed, which restores every value to what it was before, the outer test's when contexts nest.
    /// </summary>
    /// <param name="perf">The test's <see cref="PerfContext"/>.</param>
    /// <param name="host">The host the test's assertions report to.</param>
    /// <param name="scope">The test's assertion scope.</param>
    /// <param name="simulated">
    /// Who counts the test's simulated counters (<see cref="SimulatedMeasurers.Current"/>): its simulation worker, or, in that
    /// worker, the worker itself; <see langword="null"/> when nobody can.
    /// </param>
    /// <returns>The scope; dispose it in the same flow, e.g. with <c>using</c>, also when the test throws.</returns>
    public static IDisposable Enter(
        PerfContext perf, IPerfAssertionHost host, PerfAssertionScope scope, ISimulatedMeasurer? simulated = null)
    {
        ArgumentNullException.ThrowIfNull(perf);
        ArgumentNullException.ThrowIfNull(host);
        ArgumentNullException.ThrowIfNull(scope);
        var entered = new Entered(
            s_current.Value,
            PerfAssertionHost.Current,
            PerfAssertionScope.Current,
            SimulatedMeasurers.Current,
            MeasurementCancellation.Current);
        var context = new PerfTestContext(perf, host, scope);
        PerfAssertionHost.Current = context.Host;
        MeasurementCancellation.Current = context.CancellationToken;
        SimulatedMeasurers.Current = simulated;
        PerfAssertionScope.Current = context.Scope;
        s_current.Value = context;
        return entered;
    }

    /// <summary>What was current before a context was entered; a class, not a struct, so a copy cannot restore twice.</summary>
    private sealed class Entered(
        PerfTestContext? context,
        IPerfAssertionHost host,
        PerfAssertionScope? scope,
        ISimulatedMeasurer? simulated,
        CancellationToken cancellation) : IDisposable
    {
        private bool _disposed;

        /// <summary>Restores the values, in the reverse order of <see cref="Enter"/>; a second call does nothing.</summary>
        public void Dispose()
        {
            if (_disposed)
                return;
            _disposed = true;
            s_current.Value = context;
            PerfAssertionScope.Current = scope;
            SimulatedMeasurers.Current = simulated;
            MeasurementCancellation.Current = cancellation;
            PerfAssertionHost.Current = host;
        }
    }
}
