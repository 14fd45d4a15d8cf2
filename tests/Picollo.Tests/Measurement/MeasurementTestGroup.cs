using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// Measuring test classes run alone, after the parallel ones: on a 2-core machine a concurrent test class on the
/// pinned CPU inflated the TSC median of the 2N chain to 2.6× the N chain (wall time counts the time the measured
/// thread waits for the CPU; task-clock does not). Perf's own gate only serializes measurements with each other.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MeasurementTestGroup
{
    public const string Name = "measurement";
}
