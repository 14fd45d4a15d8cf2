namespace Picollo.Measurement.Engine;

/// <summary>
/// The cancellation of the measurements in the current async flow: the running test's context sets the test's token for
/// the test's duration (<c>PerfTestContext</c>), and the engine stops between samples and between warmup batches when it
/// fires, leaving nothing behind (the thread's affinity restored, the counters' descriptors closed, a no-GC region ended). An ambient
/// value rather than a parameter of every <see cref="Perf"/> overload: the measurements a baseline judgement takes again
/// (confirmation, machine speed, recording) are closures made before the token is known.
/// </summary>
internal static class MeasurementCancellation
{
    private static readonly AsyncLocal<CancellationToken> s_current = new();

    /// <summary>The token the engine observes; <see cref="CancellationToken.None"/> unless a test set one.</summary>
    /// <remarks>
    /// Set only by the running test's context (<c>PerfTestContext.Enter</c>, in Testing, a layer this one cannot see), which
    /// restores it when the test ends; <c>PerfTestContextTests</c> checks the sources for any other writer.
    /// </remarks>
    public static CancellationToken Current
    {
        get => s_current.Value;
        internal set => s_current.Value = value;
    }
}
