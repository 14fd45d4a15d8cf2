using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Measurement.Engine;
using Picollo.Testing;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Testing;

/// <summary>
/// The fresh process of a recording or a confirmation, run for real (issue 24): a shell script stands for the test
/// assembly, so what the runner hands the child (the worker protocol's variables, the lock it holds for it, no update mode)
/// and what it makes of a child that measured, crashed, hung or was cancelled are checked without a test framework.
/// </summary>
public sealed class FreshProcessRunnerTests
{
    [Fact]
    public void AChildThatMeasured_IsRead_AndGotTheWorkersVariables_ButNotUpdateMode()
    {
        using var temp = new TempDirectory();
        string measurement = temp.Combine("prepared.json");
        File.WriteAllText(measurement, "0.25\n" + new BaselineFile([new BaselineEntry(Epyc, Record(TscCounter(FloorRun(seed: 1))))]).ToJson());
        string seen = temp.Combine("environment.txt");

        FreshProcessMeasurement result = Runner(temp, $"""
            env | grep -E '^PICOLLO_' | sort > '{seen}'
            cp '{measurement}' "$PICOLLO_WORKER_OUTPUT.0.json"
            """).Measure(temp.Combine("T.M.perf.json"), 2, CancellationToken.None);

        result.Failure.ShouldBeNull();
        BaselineRecord record = result.Records.ShouldHaveSingleItem();
        record.OtherProcessesCores.ShouldBe(0.25);
        record.Find("tsc").ShouldNotBeNull();
        string[] variables = File.ReadAllLines(seen);
        variables.ShouldContain($"{FreshProcessWorker.BaselineVariable}={temp.Combine("T.M.perf.json")}");
        variables.ShouldContain($"{FreshProcessWorker.MeasurementsVariable}=2");
        variables.ShouldContain($"{MeasurementLock.InheritedVariable}={MeasurementLock.InheritedValue}", "this process holds the machine-wide lock for the child");
        variables.ShouldNotContain(static v => v.StartsWith(BaselineStoreOptions.UpdateVariable + "=", StringComparison.Ordinal));
    }

    [Fact]
    public void AChildThatMeasuredNothing_IsAFailure_WithItsExitCodeAndLastOutput()
    {
        using var temp = new TempDirectory();

        FreshProcessMeasurement result = Runner(temp, "echo 'No test matches -id 1234'; echo 'boom' >&2; exit 3").Measure(temp.Combine("T.M.perf.json"), 2, CancellationToken.None);

        result.Records.ShouldBeEmpty();
        result.Failure.ShouldStartWith("the fresh process for T.M in a script measured nothing: it exited with code 3 without measuring.");
        result.Failure.ShouldContain("Its last output: ");
        result.Failure.ShouldContain("No test matches -id 1234");
        result.Failure.ShouldContain("boom");
    }

    [Fact]
    public void AChildThatHangs_IsStopped_AndNamedAsSuch()
    {
        using var temp = new TempDirectory();

        FreshProcessMeasurement result = Runner(temp, "sleep 30", TimeSpan.FromSeconds(1)).Measure(temp.Combine("T.M.perf.json"), 1, CancellationToken.None);

        result.Failure.ShouldStartWith("the fresh process for T.M in a script measured nothing: it did not finish within 1 s and was stopped.");
    }

    [Fact]
    public void ACancelledTest_KillsItsChild()
    {
        using var temp = new TempDirectory();
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var started = System.Diagnostics.Stopwatch.StartNew();

        Should.Throw<OperationCanceledException>(() => Runner(temp, "sleep 30").Measure(temp.Combine("T.M.perf.json"), 1, cancellation.Token));

        started.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(20), "the child is killed, not waited for");
    }

    [Fact]
    public void AProgramThatDoesNotExist_IsAFailure_WithWhatToDo()
    {
        using var temp = new TempDirectory();
        var worker = new PerfTestWorker(temp.Combine("no-such-dotnet"), [], new Dictionary<string, string>(), "T.M in a script");

        FreshProcessMeasurement result = new FreshProcessRunner(worker, TimeSpan.FromMilliseconds(1)).Measure(temp.Combine("T.M.perf.json"), 1, CancellationToken.None);

        result.Failure.ShouldStartWith($"the fresh process for T.M in a script could not start {temp.Combine("no-such-dotnet")}: ");
        result.Failure.ShouldEndWith("Check that the dotnet host is on the PATH or set DOTNET_HOST_PATH.");
    }

    private static FreshProcessRunner Runner(TempDirectory temp, string script, TimeSpan? timeout = null)
    {
        string path = temp.Combine("worker.sh");
        File.WriteAllText(path, script + "\n");
        var worker = new PerfTestWorker("/bin/sh", [path], new Dictionary<string, string>(), "T.M in a script");
        return new FreshProcessRunner(worker, TimeSpan.FromMilliseconds(1), timeout ?? TimeSpan.FromSeconds(60));
    }
}
