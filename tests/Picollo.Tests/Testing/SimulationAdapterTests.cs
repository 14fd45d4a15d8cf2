using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Simulation;
using Picollo.Testing;
using Picollo.Tests.Measurement;
using Picollo.Tests.SimulationSamples;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// Simulated counters through the real xunit and NUnit pipelines (docs/COUNTERS.md, "Simulated counters"): each test's
/// worker runs under Valgrind for real, which CI installs. A machine without Valgrind skips these with the reason; the
/// skip itself is proven on every machine by pointing the workers at a Valgrind that does not exist. Beside the parallel
/// test classes (<see cref="SimulationAdapterGroup"/>): nothing here is timed.
/// </summary>
[Collection(SimulationAdapterGroup.Name)]
public sealed class SimulationAdapterTests
{
    private static readonly ValgrindInstallation s_valgrind = ValgrindInstallation.Current;

    [Fact]
    public async Task Xunit_SimulatedCounters_AreCountedInTheTestsWorker_ForEachRegion_AndReported()
    {
        RequireValgrind();
        using var sandbox = new AdapterSandbox();
        using var jit = new JitSummary(s_valgrind.Path!);
        using Restore restore = Environment(name => name == ValgrindInstallation.PathVariable
            ? jit.Valgrind
            : System.Environment.GetEnvironmentVariable(name));

        IReadOnlyList<PipelineTest> tests = await XunitPipeline.RunAsync(null, typeof(XunitSimulated), typeof(XunitSimulatedOnly));

        // Two regions in one worker, the second asserted on fluently; then a test measured as the operation, with its report.
        tests.Count.ShouldBe(2);
        foreach (PipelineTest each in tests)
            each.Outcome.ShouldBe("Passed", each.Message + each.Output);
        PipelineTest test = tests.Single(static t => t.DisplayName.EndsWith("XunitSimulatedOnly.Words", StringComparison.Ordinal));
        test.Output.ShouldContain("Note: Simulated counters: 10 samples × ");
        test.Output.ShouldContain("under callgrind 3.");
        test.Output.ShouldContain("sim-cycles = instructions + 10 × branch misses");
        test.Output.ShouldContain("##### sim-instructions (events per operation");
        NoWorkerLeft();

        // Every method the workers compiled was optimized, the test's own among them: under Valgrind the JIT falls back to
        // unoptimized code for methods that address static data unless the worker's settings (SimulationCommand) say
        // otherwise, and then counts describe code no user runs.
        string compiled = jit.Text();
        compiled.ShouldContain("XunitSimulatedOnly:Words() [FullOpts");
        compiled.ShouldNotContain("[MinOpts");
    }

    [Fact]
    public async Task Xunit_WithoutValgrind_ATestOfSimulatedCountersOnly_IsSkipped_WithTheInstallCommand()
    {
        using var sandbox = new AdapterSandbox();
        using var _ = Environment(name => name == ValgrindInstallation.PathVariable ? "/nonexistent/valgrind" : null);

        PipelineTest test = (await XunitPipeline.RunAsync(null, typeof(XunitSimulatedOnly))).ShouldHaveSingleItem();

        test.Outcome.ShouldBe("Skipped", test.Output);
        test.Message.ShouldContain("sim-instructions");
        test.Message.ShouldContain("PICOLLO_VALGRIND=/nonexistent/valgrind does not exist");
        test.Message.ShouldContain("sudo apt-get install valgrind");
    }

    [Fact]
    public async Task Xunit_UnderCoverage_ATestOfSimulatedCounters_IsSkippedWithTheCoverageReason_AndStartsNoWorker()
    {
        using var sandbox = new AdapterSandbox(update: true);
        using var coverage = FakeCoverage.Coverlet();

        // A Valgrind that does not exist: a worker started would say so; the coverage check comes before any worker.
        using var _ = Environment(name => name == ValgrindInstallation.PathVariable ? "/nonexistent/valgrind" : null);

        PipelineTest test = (await XunitPipeline.RunAsync(null, typeof(XunitSimulatedOnly))).ShouldHaveSingleItem();

        test.Outcome.ShouldBe("Skipped", test.Output);
        test.Message.ShouldStartWith("The perf test XunitSimulatedOnly.Words runs code instrumented for code coverage: coverlet rewrote");
        test.Message.ShouldNotContain("valgrind");
        sandbox.BaselineFiles().ShouldBeEmpty();
        NoWorkerLeft();
    }

    [Fact]
    public async Task Xunit_ARecording_CountsTwice_InTwoProcesses_AndAOnePercentRise_Fails()
    {
        RequireValgrind();
        using var sandbox = new AdapterSandbox(update: true);
        try
        {
            PipelineTest recorded = (await XunitPipeline.RunAsync(null, typeof(XunitSimulatedBaseline))).ShouldHaveSingleItem();
            recorded.Outcome.ShouldBe("Passed", recorded.Message + recorded.Output);
            recorded.Output.ShouldContain("Simulated counters counted again in a second process: all 1 repeated within their tolerance.");
            BaselineFile file = BaselineStore.Read(Path.Combine(sandbox.Baselines, "XunitSimulatedBaseline.Chain.perf.json"))!;
            BaselineEntry simulated = file.Entries.Single(static e => e.Machine.IsSimulated);
            simulated.Record.Find(CounterNames.SimInstructions)!.Recording!.Processes.ShouldBe(2);
            file.Entries.Single(static e => !e.Machine.IsSimulated).Record.Find(CounterNames.SimInstructions).ShouldBeNull();

            // 303 steps instead of 300: about +1 % of the body's instructions.
            sandbox.Use(update: false);
            System.Environment.SetEnvironmentVariable(XunitSimulatedBaseline.StepsVariable, "303");
            PipelineTest regressed = (await XunitPipeline.RunAsync(null, typeof(XunitSimulatedBaseline))).ShouldHaveSingleItem();

            regressed.Outcome.ShouldBe("Failed", regressed.Output);
            regressed.Message.ShouldContain("sim-instructions P50 +");
            regressed.Message.ShouldContain("regressed (simulated, within ±0.1%)");
        }
        finally
        {
            System.Environment.SetEnvironmentVariable(XunitSimulatedBaseline.StepsVariable, null);
        }

        NoWorkerLeft();
    }

    [Fact]
    public async Task Xunit_ABodyThatThrowsUnderSimulation_FailsWithWhatHappenedThere()
    {
        RequireValgrind();
        using var sandbox = new AdapterSandbox();

        PipelineTest test = (await XunitPipeline.RunAsync(null, typeof(XunitThrowsUnderSimulation))).ShouldHaveSingleItem();

        test.Outcome.ShouldBe("Failed");
        test.Message.ShouldStartWith(
            "Picollo.Measurement.PerfSimulationException: Under simulation, Picollo.Tests.SimulationSamples.XunitThrowsUnderSimulation.Work");
        test.Message.ShouldContain("failed in its worker: System.InvalidOperationException: only in the worker. Nothing was recorded.");
        NoWorkerLeft();
    }

    [Fact]
    public async Task Xunit_ABodyThatHangsUnderSimulation_FailsAtItsTimeout_AndLeavesNoProcessBehind()
    {
        RequireValgrind();
        using var sandbox = new AdapterSandbox();
        using var _ = Environment(name => name == SimulationWorker.TimeoutVariable ? "8" : System.Environment.GetEnvironmentVariable(name));

        PipelineTest test = (await XunitPipeline.RunAsync(null, typeof(XunitHangsUnderSimulation))).ShouldHaveSingleItem();

        test.Outcome.ShouldBe("Failed");
        test.Message.ShouldContain("did not finish within 8 s and was stopped: nothing was recorded.");
        test.Message.ShouldContain("set PICOLLO_SIMULATION_TIMEOUT (seconds) higher");
        NoWorkerLeft();
    }

    [Fact]
    public void NUnit_ATestCaseRunsInALeanWorker_AndAFixtureWithSetUpInNUnitsOwn()
    {
        RequireValgrind();
        using var sandbox = new AdapterSandbox();

        // NUnit's runner puts its own writer in Console.Out for the run and its saved one back after, process-wide: not while
        // a parallel test has Console.Out redirected.
        IReadOnlyList<NUnit.Framework.Interfaces.ITestResult> results;
        lock (ConsoleLock.Instance)
            results = NUnitPipeline.Run(typeof(NUnitSimulated), typeof(NUnitSimulatedWithSetUp));

        results.Count.ShouldBe(2);
        foreach (NUnit.Framework.Interfaces.ITestResult result in results)
        {
            result.ResultState.Status.ToString().ShouldBe("Passed", result.Message + result.Output);
            result.Output.ShouldContain("Note: Simulated counters: 10 samples × ");
        }

        results.Single(static r => r.Name.StartsWith("Chain", StringComparison.Ordinal)).Output.ShouldContain("##### sim-cycles");
        NoWorkerLeft();
    }

    // CI installs Valgrind; a developer's machine without it skips, saying so.
    private static void RequireValgrind() =>
        Assert.SkipUnless(s_valgrind.IsAvailable, $"Simulated counters cannot count here: {s_valgrind.UnavailableReason}");

    // No simulation worker of the samples still runs: every one was stopped when its test ended.
    private static void NoWorkerLeft()
    {
        string[] left =
        [
            .. Directory.EnumerateDirectories("/proc")
                .Select(static d => Path.Combine(d, "cmdline"))
                .Where(File.Exists)
                .Select(static f =>
                {
                    try
                    {
                        return File.ReadAllText(f).Replace('\0', ' ');
                    }
                    catch (IOException)
                    {
                        return string.Empty;
                    }
                })
                .Where(static c => c.Contains("callgrind", StringComparison.Ordinal) && c.Contains("Picollo.Tests.SimulationSamples", StringComparison.Ordinal)),
        ];
        left.ShouldBeEmpty();
    }

    // Valgrind behind a script that has the runtime list every method it compiles, with its optimization, in a file.
    private sealed class JitSummary : IDisposable
    {
        private readonly string _folder = Directory.CreateTempSubdirectory("picollo-jit-").FullName;

        public JitSummary(string valgrind)
        {
            Valgrind = Path.Combine(_folder, "valgrind");
            File.WriteAllText(
                Valgrind,
                $"#!/bin/sh\nexport DOTNET_JitStdOutFile={_folder}/jit-$$.txt DOTNET_JitDisasmSummary=1\nexec {valgrind} \"$@\"\n");
            if (!OperatingSystem.IsWindows())
                File.SetUnixFileMode(Valgrind, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        public string Valgrind { get; }

        // Threads compiling at once may interleave their lines, so the text is searched as a whole.
        public string Text() => string.Concat(Directory.EnumerateFiles(_folder, "jit-*.txt").Select(File.ReadAllText));

        public void Dispose() => Directory.Delete(_folder, recursive: true);
    }

    private static Restore Environment(Func<string, string?> environment)
    {
        var restore = new Restore(SimulationWorker.GetEnvironmentVariable);
        SimulationWorker.GetEnvironmentVariable = environment;
        return restore;
    }

    private sealed class Restore(Func<string, string?> previous) : IDisposable
    {
        public void Dispose() => SimulationWorker.GetEnvironmentVariable = previous;
    }
}
