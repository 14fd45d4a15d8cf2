using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Simulated;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// A recording of simulated counters counts them again in a second process before it stores anything (docs/VERDICTS.md,
/// "Simulated counters"): counts that repeat are stored with the difference they showed; counts that differ store nothing,
/// and say why. A scripted second count stands for the second worker (the real one runs in SimulationAdapterTests).
/// </summary>
public sealed class SimulatedRecordingTests
{
    private static readonly SimulatorInfo Callgrind = new("callgrind 3.19.0", "X64", ["avx2", "bmi2"], "10.0.12", false, false);

    [Fact]
    public void CountsThatRepeatInASecondProcess_AreStored_WithTheDifferenceTheyShowed()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Measured(3_325, again: 3_325.5).ShouldNotRegress(options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        BaselineFile received = BaselineStore.Read(temp.Combine("T.M.received.perf.json"))!;
        BaselineEntry simulated = received.Entries.Single(static e => e.Machine.IsSimulated);
        simulated.Machine.Id.ShouldBe(MachineFingerprint.ForSimulator(Callgrind).Id);
        RecordingQuality recording = simulated.Record.Find(CounterNames.SimInstructions)!.Recording!;
        recording.Processes.ShouldBe(2);
        recording.Drift.ShouldBe(0.00015, 1e-12, "0.5 / 3,325.5, two significant digits");
        received.Entries.Single(static e => !e.Machine.IsSimulated).Record.Find("tsc").ShouldNotBeNull();
        host.Output[^1].ShouldContain("Simulated counters counted again in a second process: all 1 repeated within their tolerance.");
    }

    [Fact]
    public void CountsThatDifferBetweenProcesses_StoreNothing_AndSayWhy()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        Measured(3_325, again: 3_391.5).ShouldNotRegress(options: Options(temp), callerFilePath: temp.Combine("T.cs"), testMethod: "M");

        Directory.GetFiles(temp.Path).ShouldBeEmpty("neither a baseline nor a received file");
        host.Notices.ShouldContain(static n => n.Message.Contains(
            "Nothing recorded: the simulated counts differed between two processes (sim-instructions P50 3,325 and 3,391.5 per operation, "
            + "beyond ±0.1%)", StringComparison.Ordinal));
    }

    [Fact]
    public void CountsThatDiffer_FailAnUpdate_WhichAskedForABaseline()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        PerfAssertionException failure = Should.Throw<PerfAssertionException>(() => Measured(3_325, again: 3_391.5).ShouldNotRegress(
            options: Options(temp) with { UpdateBaselines = true }, callerFilePath: temp.Combine("T.cs"), testMethod: "M"));

        failure.Message.ShouldContain("Nothing recorded: the simulated counts differed between two processes");
        Directory.GetFiles(temp.Path).ShouldBeEmpty();
    }

    private static BaselineStoreOptions Options(TempDirectory temp) =>
        new() { GetEnvironmentVariable = TestEnvironment.Local(temp), RecordingProcesses = 0 };

    // A measurement of tsc and sim-instructions at perOperation; its simulated counters counted again read again.
    private static PerfResult Measured(double perOperation, double again)
    {
        PerfResult Result()
        {
            SimulatedMeasurement simulated = Simulated(perOperation);
            PerfResult native = SyntheticResults.Result(
                SyntheticResults.Tsc(), SyntheticResults.Unavailable(CounterNames.SimInstructions, "not counted here"));
            PerfResult merged = SimulatedResults.Merge(
                new PerfResult(
                    [native.Counters[0], CounterResult.Unavailable(
                        new CounterDescriptor(CounterNames.SimInstructions, "events", CounterKind.Simulated, "not yet"), 0.001)],
                    native.Options,
                    native.Run),
                simulated);
            return merged.WithRemeasure(Result).WithSimulateAgain(() => Simulated(again));
        }

        return Result();
    }

    private static SimulatedMeasurement Simulated(double perOperation) => new(
        200,
        [new SimulatedCounterSamples(CounterNames.SimInstructions, [.. Enumerable.Repeat((ulong)Math.Round(perOperation * 200), 10)], 16_000, null)],
        Callgrind,
        [],
        TimeSpan.FromSeconds(7.8));
}
