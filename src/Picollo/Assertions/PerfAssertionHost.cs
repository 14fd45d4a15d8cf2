namespace Picollo.Assertions;

/// <summary>The host the assertions report to: per async flow, so parallel tests can each have their own.</summary>
public static class PerfAssertionHost
{
    private static readonly AsyncLocal<IPerfAssertionHost?> s_current = new();

    /// <summary>
    /// The default host: throws <see cref="PerfCounterUnavailableException"/> for every assertion that cannot run, writes notices to
    /// standard error and reports to standard output.
    /// </summary>
    public static IPerfAssertionHost Throwing { get; } = new ThrowingPerfAssertionHost();

    /// <summary>
    /// The host of the current async flow (a test and everything it awaits); <see cref="Throwing"/> unless a perf test or
    /// <see cref="Use"/> installed another.
    /// </summary>
    /// <remarks>
    /// The setter is internal: a public setter let any code replace the host without restoring it. The running
    /// perf test's context (<c>PerfTestContext.Enter</c>, in Testing) sets and restores it around each test and is its only
    /// writer in src/ (<c>PerfTestContextTests</c> checks); everyone else installs a host for a scope with <see cref="Use"/>.
    /// Set to <see langword="null"/> to return to <see cref="Throwing"/>.
    /// </remarks>
    public static IPerfAssertionHost Current
    {
        get => s_current.Value ?? Throwing;
        internal set => s_current.Value = value;
    }

    /// <summary>
    /// Installs <paramref name="host"/> for the current async flow (and the flows it starts) until the returned scope is
    /// disposed, which restores the host that was current before.
    /// </summary>
    /// <param name="host">The host that receives what the assertions report inside the scope.</param>
    /// <returns>The scope; dispose it in the same flow, e.g. with <c>using</c>.</returns>
    /// <example><code>using (PerfAssertionHost.Use(new WarningHost())) result.Cycles.ShouldHaveP99AtMost(1_000);</code></example>
    public static IDisposable Use(IPerfAssertionHost host)
    {
        ArgumentNullException.ThrowIfNull(host);
        var scope = new Scope(s_current.Value);
        s_current.Value = host;
        return scope;
    }

    private sealed class Scope(IPerfAssertionHost? previous) : IDisposable
    {
        private bool _disposed;

        public void Dispose()
        {
            if (_disposed)
                return;
            _disposed = true;
            s_current.Value = previous;
        }
    }
}
