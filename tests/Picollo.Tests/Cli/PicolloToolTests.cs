using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.PerfEvents;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Cli;

/// <summary>The picollo tool run as a process on real files in temp folders (issue 14).</summary>
public sealed class PicolloToolTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Doctor_Json_IsThisMachine_AndTheExitCodeSaysWhetherHardwareCounts()
    {
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "doctor", "--json");

        run.ExitCode.ShouldBe(PerfEventAvailability.Current.IsHardwareAvailable ? 0 : 2, run.Output);
        using JsonDocument json = JsonDocument.Parse(run.Output);
        JsonElement root = json.RootElement;
        root.GetProperty("baselineKey").GetString().ShouldBe(MachineFingerprint.Current.Id, "the key perf tests of this machine write, with background GC off as in test projects");
        root.GetProperty("perfEventParanoid").ValueKind.ShouldBeOneOf(JsonValueKind.Number, JsonValueKind.Null);
        JsonElement[] counters = [.. root.GetProperty("counters").EnumerateArray()];
        JsonElement tsc = counters.Single(static c => c.GetProperty("name").GetString() == "tsc");
        tsc.GetProperty("counts").GetBoolean().ShouldBe(Picollo.Counters.Tsc.IsSupported);
        counters.Single(static c => c.GetProperty("name").GetString() == "allocated-bytes").GetProperty("counts").GetBoolean().ShouldBeTrue();
        JsonElement cycles = counters.Single(static c => c.GetProperty("name").GetString() == "cycles");
        cycles.GetProperty("counts").GetBoolean().ShouldBe(PerfEventAvailability.Current.IsHardwareAvailable);
        if (!PerfEventAvailability.Current.IsHardwareAvailable)
            cycles.GetProperty("reason").GetString()!.ShouldContain("cycles");

        // Simulated counters count where Valgrind runs .NET: the doctor started a small .NET program under it to know.
        JsonElement simulation = root.GetProperty("simulation");
        bool valgrind = Picollo.Simulation.ValgrindInstallation.Current.IsAvailable;
        simulation.GetProperty("counts").GetBoolean().ShouldBe(valgrind, simulation.ToString());
        JsonElement simulated = counters.Single(static c => c.GetProperty("name").GetString() == "sim-instructions");
        simulated.GetProperty("kind").GetString().ShouldBe("simulated");
        simulated.GetProperty("counts").GetBoolean().ShouldBe(valgrind);
        if (valgrind)
            simulation.GetProperty("probeSeconds").GetDouble().ShouldBeGreaterThan(0);
        else
            simulated.GetProperty("reason").GetString()!.ShouldContain("valgrind", Case.Insensitive);
    }

    [Fact]
    public void Doctor_Tables_ShowTheKeyAndEachReasonOnce()
    {
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "doctor");

        run.Output.ShouldContain($"Baseline key {MachineFingerprint.Current.Id}");
        run.Output.ShouldContain("perf_event_paranoid");
        if (!PerfEventAvailability.Current.IsHardwareAvailable)
        {
            run.Output.ShouldContain("Hardware counters are not usable here (exit code 2)");
            // Every hardware event fails for one reason: one line names them all.
            run.Output.Split('\n').Count(static l => l.StartsWith("Not counting here: cycles, instructions, ", StringComparison.Ordinal)).ShouldBe(1, run.Output);
        }
    }

    [Fact]
    public void Help_NamesTheToolPicollo_AndItsDescriptionNamesEveryCommand()
    {
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "--help");

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardOutput.ShouldContain("\n  picollo [command] [options]\n");
        run.StandardOutput.ShouldNotContain("Picollo.Cli", customMessage: "the tool runs as dotnet Picollo.Cli.dll; users type picollo (issue 27)");
        string[] lines = run.StandardOutput.Split('\n');
        string description = lines[Array.IndexOf(lines, "Description:") + 1];
        string[] commands = [.. lines.SkipWhile(static l => l != "Commands:").Skip(1).TakeWhile(static l => l.Length > 0).Select(static l => l.Trim().Split(' ')[0])];
        commands.ShouldBe(["doctor", "list", "baselines", "accept", "compare", "report", "ab", "history", "bisect"]);
        foreach (string command in commands)
            description.ShouldContain($"({command}", customMessage: $"the tool's description says what {command} is for");

        PicolloTool.Run compare = PicolloTool.Invoke(_dir.Path, null, "compare", "--help");
        compare.StandardOutput.ShouldContain("\n  picollo compare <base> <head> [options]\n");
    }

    [Fact]
    public void List_NamesTscTheRuntimeCountersAndPerfNames_AndAnUnknownPmuIsAnError()
    {
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "list");
        run.ExitCode.ShouldBe(0, run.Output);
        string[] names = run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        names.ShouldContain("tsc");
        names.ShouldContain("allocated-bytes");
        names.ShouldContain("task-clock");
        names.ShouldContain("cycles");

        PicolloTool.Run unknown = PicolloTool.Invoke(_dir.Path, null, "list", "--pmu", "no-such-pmu");
        unknown.ExitCode.ShouldBe(2);
        unknown.StandardOutput.ShouldBeEmpty();
        unknown.StandardError.ShouldContain("No PMU named 'no-such-pmu' on this machine. Its PMUs: ");
    }

    [Fact]
    public void Baselines_ListMachines_AndWhyEachReceivedEntryWasWritten()
    {
        string baseline = WriteBaseline("Parser", new BaselineEntry(Epyc, Record(AcrossProcesses(TaskClock(Noisy(1_000, 20, seed: 1))))));
        WriteReceived(baseline,
            new BaselineEntry(Epyc, Record(TaskClock(Noisy(2_000, 40, seed: 2)))),
            new BaselineEntry(Xeon, Record(TaskClock(Noisy(900, 20, seed: 3)))));
        WriteBaseline("Lexer", new BaselineEntry(Xeon, Record(TaskClock(Noisy(500, 10, seed: 4)))));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "baselines");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain("2 test(s), 2 with a baseline, 2 received entries pending: picollo accept reviews them.");
        // The table wraps long cells: the ids and reasons are looked for, not whole cells.
        run.Output.ShouldContain(Epyc.Id);
        run.Output.ShouldContain(Xeon.Id);
        run.Output.ShouldContain("regressed: task-clock", customMessage: run.Output);
        run.Output.ShouldContain("missing");
        run.Output.ShouldContain(", across 4 processes (task-clock levels 1.15× apart)", customMessage: "the Parser entry was recorded across processes");
    }

    [Fact]
    public void Baselines_InAFolderWithNone_SaySo_AndACorruptFile_IsNamedWithItsPosition()
    {
        PicolloTool.Run empty = PicolloTool.Invoke(_dir.Path, null, "baselines");
        empty.ExitCode.ShouldBe(0);
        empty.Output.ShouldContain("No baseline or received file (*.perf.json) under");
        PicolloTool.Run nowhere = PicolloTool.Invoke(_dir.Path, null, "accept", "nowhere");
        nowhere.ExitCode.ShouldBe(2);
        nowhere.StandardOutput.ShouldBeEmpty();
        nowhere.StandardError.ShouldContain($"No folder {_dir.Combine("nowhere")}: give the folder that holds the perf tests");

        string corrupt = _dir.Combine("Broken.Test.perf.json");
        File.WriteAllText(corrupt, "{ \"version\": 1, \"machines\": [ oops ] }");
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "baselines");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldContain("Not read:");
        run.StandardError.ShouldContain(corrupt);
        run.StandardOutput.ShouldNotContain(corrupt);
        File.ReadAllText(corrupt).ShouldBe("{ \"version\": 1, \"machines\": [ oops ] }");
    }

    [Fact]
    public void Accept_Interactively_TakesTheAnswersFromStandardInput_AndKeepsOtherMachines()
    {
        string baseline = WriteBaseline("Parser", new BaselineEntry(Epyc, Record(AcrossProcesses(TaskClock(Noisy(1_000, 20, seed: 1))))));
        BaselineEntry regressed = new(Epyc, Record(TaskClock(Noisy(2_000, 40, seed: 2))));
        BaselineEntry newMachine = new(Xeon, Record(TaskClock(Noisy(900, 20, seed: 3))));
        WriteReceived(baseline, regressed, newMachine);

        // Skip the regression, accept the new machine.
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, "n\ny\n", "accept");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain("Baseline P50");
        run.Output.ShouldContain("Accepted 1, skipped 1.");
        BaselineFile after = BaselineStore.Read(baseline)!;
        after.Find(Xeon.Id).ShouldNotBeNull();
        Json(after.Find(Epyc.Id)!).ShouldNotBe(Json(regressed), "the skipped entry is not accepted");
        File.Exists(BaselineLocator.GetReceivedPath(baseline)).ShouldBeTrue("the skipped entry is still pending");

        // A closed input accepts nothing.
        PicolloTool.Run closed = PicolloTool.Invoke(_dir.Path, "", "accept");
        closed.Output.ShouldContain("Stopped. Accepted 0");
    }

    [Fact]
    public void Accept_All_AcceptsEveryPendingEntry_AndTheReceivedFileGoes()
    {
        string baseline = WriteBaseline("Parser", new BaselineEntry(Epyc, Record(AcrossProcesses(TaskClock(Noisy(1_000, 20, seed: 1))))));
        BaselineEntry regressed = new(Epyc, Record(TaskClock(Noisy(2_000, 40, seed: 2))));
        WriteReceived(baseline, regressed, new BaselineEntry(Xeon, Record(TaskClock(Noisy(900, 20, seed: 3)))));
        string other = WriteBaseline("Lexer", new BaselineEntry(Xeon, Record(TaskClock(Noisy(500, 10, seed: 4)))));
        WriteReceived(other, new BaselineEntry(Xeon, Record(TaskClock(Noisy(700, 10, seed: 5)))));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--all", "--test", "Parser.Run");

        run.ExitCode.ShouldBe(0, run.Output);
        run.Output.ShouldContain("Accepted 2, skipped 0.");
        BaselineFile after = BaselineStore.Read(baseline)!;
        Json(after.Find(Epyc.Id)!).ShouldBe(Json(regressed));
        after.Find(Xeon.Id).ShouldNotBeNull();
        File.Exists(BaselineLocator.GetReceivedPath(baseline)).ShouldBeFalse("nothing is pending any more");
        File.Exists(BaselineLocator.GetReceivedPath(other)).ShouldBeTrue("--test Parser.Run leaves Lexer.Run alone");
    }

    [Fact]
    public void Accept_WithACorruptReceivedFile_ChangesNothing_AndSaysWhichFile()
    {
        string baseline = WriteBaseline("Parser", new BaselineEntry(Epyc, Record(AcrossProcesses(TaskClock(Noisy(1_000, 20, seed: 1))))));
        string before = File.ReadAllText(baseline);
        string received = BaselineLocator.GetReceivedPath(baseline);
        File.WriteAllText(received, "{ not json");

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--all");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldContain("Not read, left unchanged:");
        run.StandardError.ShouldContain(received);
        File.ReadAllText(baseline).ShouldBe(before);
        File.ReadAllText(received).ShouldBe("{ not json");
    }

    // A counter recorded in four processes whose slowest level ran 15 % slower than the kept one.
    private static BaselineCounter AcrossProcesses(BaselineCounter counter) =>
        counter with { Recording = new RecordingQuality(2, 0.003, null) { Processes = 4, Spread = 1.15 } };

    private string WriteBaseline(string test, params BaselineEntry[] entries)
    {
        string path = _dir.Combine($"{test}.Run.perf.json");
        File.WriteAllText(path, new BaselineFile(entries).ToJson());
        return path;
    }

    // As the library writes it: the baseline's entries and the new ones.
    private static void WriteReceived(string baselinePath, params BaselineEntry[] entries)
    {
        BaselineFile received = BaselineStore.Read(baselinePath) ?? BaselineFile.Empty;
        foreach (BaselineEntry entry in entries)
            received = received.WithEntry(entry);
        File.WriteAllText(BaselineLocator.GetReceivedPath(baselinePath), received.ToJson());
    }

    private static string Json(BaselineEntry entry) => new BaselineFile([entry]).ToJson();
}
