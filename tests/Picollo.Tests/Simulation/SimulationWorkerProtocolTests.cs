using Picollo.Measurement.Simulated;
using Picollo.Simulation;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Simulation;

/// <summary>What a simulation worker writes for a region, read back by the test's process.</summary>
public sealed class SimulationWorkerProtocolTests
{
    [Fact]
    public void ARegion_RoundTrips_WithItsSimulatorAndUnavailableCounters()
    {
        using var folder = new TempDirectory();
        var written = new SimulatedMeasurement(
            301,
            [
                new SimulatedCounterSamples("sim-instructions", [1_000_825, 1_000_825], 16_304, null),
                new SimulatedCounterSamples("sim-cache-misses", [], 0, "'sim-cache-misses' needs events callgrind did not simulate."),
            ],
            new SimulatorInfo("callgrind 3.19.0", "X64", ["avx2", "bmi2"], "10.0.12", false, false),
            ["A garbage collection ran in 1 of 10 simulated samples."],
            TimeSpan.FromMilliseconds(3_363.5));
        string path = SimulationWorkerProtocol.RegionPath(folder.Path, 0);

        SimulationWorkerProtocol.WriteWhole(path, SimulationWorkerProtocol.ToJson(written));
        SimulatedMeasurement read = SimulationWorkerProtocol.Read(path);

        File.ReadAllBytes(path)[0].ShouldBe((byte)'{', "no byte-order mark");
        read.OperationsPerSample.ShouldBe(301);
        read.Simulator.ShouldBe(written.Simulator);
        read.Counters[0].Samples.ShouldBe([1_000_825UL, 1_000_825UL]);
        read.Counters[0].Overhead.ShouldBe(16_304UL);
        read.Counters[1].UnavailableReason.ShouldBe(written.Counters[1].UnavailableReason);
        read.Notes.ShouldBe(written.Notes);
        read.WallTime.ShouldBe(written.WallTime);
    }

    [Fact]
    public void AFileThatIsNotARegion_IsReportedWithItsPath()
    {
        using var folder = new TempDirectory();
        string path = folder.Combine("region-0.json");
        File.WriteAllText(path, "{ \"operationsPerSample\": 3 ");

        InvalidDataException error = Should.Throw<InvalidDataException>(() => SimulationWorkerProtocol.Read(path));

        error.Message.ShouldStartWith($"The simulation worker's file {path} is not a measurement it writes: ");
    }
}
