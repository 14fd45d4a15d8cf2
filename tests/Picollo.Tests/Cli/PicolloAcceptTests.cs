using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Cli;

/// <summary>
/// <c>picollo accept --test</c> run as a process on real baseline files (issue 27): names as <c>dotnet test --filter</c>
/// users give them, the list shown before anything is accepted, <c>--dry-run</c>, and an unknown name.
/// </summary>
public sealed class PicolloAcceptTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Test_IsTheMethodName_NotTextInTheClassName()
    {
        Tokenizer tokenizer = WriteTokenizerPerf();

        // The run: TokenizerPerf contains "Tokenize", and a text search accepted CountRows.4 and CountRows.64 too.
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--all", "--test", "Tokenize");

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardError.ShouldBeEmpty();
        run.StandardOutput.ShouldContain("Accepted 1, skipped 0.");
        File.Exists(BaselineLocator.GetReceivedPath(tokenizer.Tokenize)).ShouldBeFalse("Tokenize was accepted");
        File.Exists(BaselineLocator.GetReceivedPath(tokenizer.Rows4)).ShouldBeTrue("CountRows.4 is not the method Tokenize");
        File.Exists(BaselineLocator.GetReceivedPath(tokenizer.Rows64)).ShouldBeTrue("CountRows.64 is not the method Tokenize");
    }

    [Fact]
    public void All_ListsWhatWillBeAccepted_AndTheLevelsItDrops_BeforeAcceptingAnything()
    {
        Tokenizer tokenizer = WriteTokenizerPerf();

        // Both cases of the theory; the fully qualified name ends in Class.Method.
        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--all", "--test", "MyLib.PerfTests.TokenizerPerf.CountRows");

        run.ExitCode.ShouldBe(0, run.Output);
        string[] lines = run.StandardOutput.Split('\n');
        lines[0].ShouldBe("2 received entries will be accepted (tests named 'MyLib.PerfTests.TokenizerPerf.CountRows'):");
        lines[1].ShouldBe($"  TokenizerPerf.CountRows.4 on {Epyc.Id} ({Epyc.CpuModel}): regressed");
        lines[2].ShouldBe("    accepting it drops the levels this machine's entry recorded across 4 processes (task-clock levels 1.15× apart): the received entry was recorded in 1 process");
        lines[3].ShouldBe($"  TokenizerPerf.CountRows.64 on {Xeon.Id} ({Xeon.CpuModel}): missing");
        lines[4].ShouldStartWith("To keep levels measured across processes, record those tests again with PICOLLO_UPDATE_BASELINES=1");
        Array.FindIndex(lines, static l => l.StartsWith("Accepted into ", StringComparison.Ordinal)).ShouldBeGreaterThan(4, "the list comes before any change");
        run.StandardOutput.ShouldContain("Accepted 2, skipped 0.");
        File.Exists(BaselineLocator.GetReceivedPath(tokenizer.Tokenize)).ShouldBeTrue("Tokenize is not CountRows");
        BaselineStore.Read(tokenizer.Rows4)!.Find(Epyc.Id)!.Record.RecordedProcesses.ShouldBe(1, "accepting replaced the levels, as the list said");
    }

    [Fact]
    public void DryRun_ListsWhatWouldBeAccepted_AndChangesNothing()
    {
        Tokenizer tokenizer = WriteTokenizerPerf();
        string[] paths = [tokenizer.Tokenize, tokenizer.Rows4, tokenizer.Rows64];
        string[] before = [.. paths.SelectMany(static p => new[] { p, BaselineLocator.GetReceivedPath(p) }).Select(static p => File.Exists(p) ? File.ReadAllText(p) : "")];

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--dry-run", "--test", "TokenizerPerf.*");

        run.ExitCode.ShouldBe(0, run.Output);
        run.StandardError.ShouldBeEmpty();
        run.StandardOutput.ShouldStartWith("3 received entries would be accepted (tests named 'TokenizerPerf.*'):");
        run.StandardOutput.ShouldContain("  TokenizerPerf.CountRows.4 on ");
        run.StandardOutput.ShouldContain("accepting it drops the levels this machine's entry recorded across 4 processes");
        run.StandardOutput.ShouldContain("Dry run: nothing was changed.");
        run.StandardOutput.ShouldNotContain("Accept?");
        string[] after = [.. paths.SelectMany(static p => new[] { p, BaselineLocator.GetReceivedPath(p) }).Select(static p => File.Exists(p) ? File.ReadAllText(p) : "")];
        after.ShouldBe(before);
    }

    [Fact]
    public void AnUnknownName_IsExitCode2_WithTheNearestNames_AndChangesNothing()
    {
        Tokenizer tokenizer = WriteTokenizerPerf();
        string received = File.ReadAllText(BaselineLocator.GetReceivedPath(tokenizer.Tokenize));

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "accept", "--all", "--test", "Tokenise");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardOutput.ShouldBeEmpty();
        run.StandardError.ShouldBe($"picollo accept: no test named 'Tokenise' has a baseline or received file under {_dir.Path}; the nearest names: TokenizerPerf.Tokenize, TokenizerPerf.CountRows. Name the method (Tokenize), Class.Method (TokenizerPerf.Tokenize) or a pattern (TokenizerPerf.*), as dotnet test --filter does.\n");
        File.ReadAllText(BaselineLocator.GetReceivedPath(tokenizer.Tokenize)).ShouldBe(received);
    }

    private sealed record Tokenizer(string Tokenize, string Rows4, string Rows64);

    // TokenizerPerf.Tokenize (a regression pending), the theory TokenizerPerf.CountRows: case 4 with an entry recorded across
    // 4 processes and a one-process regression pending, case 64 with a new machine pending.
    private Tokenizer WriteTokenizerPerf()
    {
        string tokenize = WriteBaseline("TokenizerPerf.Tokenize", new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 20, seed: 1)))));
        WriteReceived(tokenize, new BaselineEntry(Epyc, Record(TaskClock(Noisy(2_000, 40, seed: 2)))));
        string rows4 = WriteBaseline("TokenizerPerf.CountRows.4", new BaselineEntry(Epyc, Record(AcrossProcesses(TaskClock(Noisy(500, 10, seed: 3))))));
        WriteReceived(rows4, new BaselineEntry(Epyc, Record(TaskClock(Noisy(1_000, 20, seed: 4)))));
        string rows64 = WriteBaseline("TokenizerPerf.CountRows.64", new BaselineEntry(Epyc, Record(TaskClock(Noisy(800, 10, seed: 5)))));
        WriteReceived(rows64, new BaselineEntry(Xeon, Record(TaskClock(Noisy(900, 10, seed: 6)))));
        return new Tokenizer(tokenize, rows4, rows64);
    }

    // A counter recorded in four processes whose slowest level ran 15 % slower than the kept one.
    private static BaselineCounter AcrossProcesses(BaselineCounter counter) =>
        counter with { Recording = new RecordingQuality(2, 0.003, null) { Processes = 4, Spread = 1.15 } };

    private string WriteBaseline(string test, params BaselineEntry[] entries)
    {
        string path = _dir.Combine(test + BaselineLocator.BaselineExtension);
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
}
