namespace Picollo.Baselines.Judging;

/// <summary>
/// Measures the body of the test being judged again in a fresh process of the same test assembly (docs/VERDICTS.md,
/// "Levels"): short branchy code runs at one of several speeds chosen per process (a floor 1,062 to 2,155 ticks over 16
/// fresh processes of one machine), so a recording that measured one process cannot know the speeds of the next, and a
/// confirming measurement in the same process only repeats its speed. The test adapters provide one (they know how to
/// start their test framework on one test); outside an adapter there is none and verdicts keep to one process.
/// </summary>
internal interface IFreshProcessMeasurer
{
    /// <summary>
    /// Starts one fresh process that measures the body of the baseline at <paramref name="baselinePath"/> and reports
    /// each measurement.
    /// </summary>
    /// <param name="baselinePath">The baseline whose body is measured: the test (and theory case, or region) it belongs to.</param>
    /// <param name="measurements">How many measurements the process takes, one after the other.</param>
    /// <param name="cancellation">The test's cancellation: the process is killed.</param>
    /// <returns>The measurements, or why there are none.</returns>
    FreshProcessMeasurement Measure(string baselinePath, int measurements, CancellationToken cancellation);
}
