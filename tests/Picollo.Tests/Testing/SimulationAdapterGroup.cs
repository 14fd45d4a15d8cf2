using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// <see cref="SimulationAdapterTests"/>: a collection of their own that runs beside the parallel test classes, not in the
/// <see cref="Measurement.MeasurementTestGroup"/> that runs alone. What they check is counted under Valgrind (instructions,
/// the same in every process whatever else runs on the machine) or exact (allocated bytes), not timed; and their two
/// minutes of workers under Valgrind keep one core busy, which alone left the other idle at the end of the suite. The
/// process-wide settings they change (<see cref="AdapterSandbox"/>'s baseline options, the simulation workers' environment,
/// the coverage probe, <see cref="Console.Out"/> in NUnit's runner) are read by no test of the parallel classes: the
/// adapter tests that also read them are in the measurement group, which starts after every parallel class has ended.
/// <see cref="Support.LongCollectionsFirst"/> starts it after <c>picollo bisect</c>'s: its workers run under the
/// machine-wide measurement lock, which the tool's runs take too, and waiting for each other held both of xunit's threads.
/// </summary>
[CollectionDefinition(Name)]
public sealed class SimulationAdapterGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "simulated counters through the adapters";
}
