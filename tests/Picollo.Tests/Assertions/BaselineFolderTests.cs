using System.Runtime.Versioning;
using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary>
/// <c>ShouldNotRegress</c> when the baseline's folder cannot be written or found, when a counter improves, and for exact
/// counters: what the user reads, on real folders and files.
/// </summary>
[SupportedOSPlatform("linux")]
public sealed class BaselineFolderTests
{
    private const string FixSentence = "Make the folder writable, or set PICOLLO_BASELINE_ROOT to the repository root";

    [Fact]
    public void MissingBaseline_ReadOnlyFolder_PassesWithANoticeNamingTheFolderTheReasonAndTheFix()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string folder = Directory.CreateDirectory(temp.Combine("src")).FullName;
        BaselineStoreOptions options = Options(temp);
        using (OtherUser.MakeReadOnly(folder))
            OtherUser.Run(() => Allocating(88).ShouldNotRegress(options: options, callerFilePath: Path.Combine(folder, "SampleTests.cs"), testMethod: "Allocates"));

        string notice = host.Notices.ShouldHaveSingleItem().Message;
        notice.ShouldContain($"Could not write the received file {Path.Combine(folder, "SampleTests.Allocates.received.perf.json")}: the folder {folder} is not writable for this user. Nothing was written.");
        notice.ShouldContain(FixSentence);
        notice.ShouldContain("allocated-bytes: no baseline");
        Directory.GetFileSystemEntries(folder).ShouldBeEmpty("nothing half-written, no temporary or lock file");
    }

    [Fact]
    public void MissingBaseline_ReadOnlyFileSystem_NamesTheReceivedFile_NotATemporaryOne()
    {
        // A container's read-only volume: the kernel refuses every write with EROFS, whoever runs the test. A tmpfs mounted
        // read-only is one (root only, as CI and this VM run).
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string folder = Directory.CreateDirectory(temp.Combine("src")).FullName;
        using (ReadOnlyMount.Over(folder))
            Allocating(88).ShouldNotRegress(options: Options(temp), callerFilePath: Path.Combine(folder, "SampleTests.cs"), testMethod: "Allocates");

        string notice = host.Notices.ShouldHaveSingleItem().Message;
        notice.ShouldContain($"Could not write the received file {Path.Combine(folder, "SampleTests.Allocates.received.perf.json")}: the folder {folder} is on a read-only file system (a read-only mount or volume). Nothing was written.");
        notice.ShouldNotContain(".tmp");
        notice.ShouldContain(FixSentence);
        notice.ShouldContain("allocated-bytes: no baseline");
    }

    [Fact]
    public void UpdateMode_ReadOnlyFolder_FailsWithTheSameSentence_AndWritesNothing()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string folder = Directory.CreateDirectory(temp.Combine("src")).FullName;
        BaselineStoreOptions options = Options(temp) with { UpdateBaselines = true };
        PerfAssertionException failure;
        using (OtherUser.MakeReadOnly(folder))
        {
            failure = OtherUser.Run(() => Should.Throw<PerfAssertionException>(
                () => Allocating(88).ShouldNotRegress(options: options, callerFilePath: Path.Combine(folder, "SampleTests.cs"), testMethod: "Allocates")));
        }

        failure.Message.ShouldContain("    but\nthe baseline could not be written");
        failure.Message.ShouldContain($"Could not update the baseline {Path.Combine(folder, "SampleTests.Allocates.perf.json")}: the folder {folder} is not writable for this user. Nothing was written.");
        failure.Message.ShouldContain(FixSentence);
        Directory.GetFileSystemEntries(folder).ShouldBeEmpty();
    }

    [Fact]
    public void Regression_ReadOnlyFolder_StillFails_AndSaysTheReceivedFileWasNotWritten()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string folder = Directory.CreateDirectory(temp.Combine("src")).FullName;
        string source = Path.Combine(folder, "SampleTests.cs");
        BaselineStoreOptions options = Options(temp);
        Allocating(88).ShouldNotRegress(options: options with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        PerfAssertionException failure;
        using (OtherUser.MakeReadOnly(folder))
            failure = OtherUser.Run(() => Should.Throw<PerfAssertionException>(() => Allocating(96).ShouldNotRegress(options: options, callerFilePath: source, testMethod: "Allocates")));

        failure.Message.ShouldContain("1 counter regressed: allocated-bytes");
        failure.Message.ShouldContain("allocated-bytes P50 +9.1% (88 → 96 bytes/op): regressed (exact)");
        failure.Message.ShouldContain("Could not write the received file");
        failure.Message.ShouldNotContain("Received: ");
        Directory.GetFiles(folder).Select(Path.GetFileName).ShouldBe(["SampleTests.Allocates.perf.json"]);
    }

    [Fact]
    public void DeterministicBuildPathOutsideTheRepository_PassesLocallyWithTheLocatorsExplanation_AndFailsInUpdateMode()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();

        // What [CallerFilePath] gives in a ContinuousIntegrationBuild run from a folder that holds no copy of the sources.
        const string MappedSource = "/_/tests/NoSuchProject/SampleTests.cs";
        Allocating(88).ShouldNotRegress(options: Options(temp), callerFilePath: MappedSource, testMethod: "Allocates");

        string notice = host.Notices.ShouldHaveSingleItem().Message;
        notice.ShouldContain("Cannot find the directory of the test source '/_/tests/NoSuchProject/SampleTests.cs'");
        notice.ShouldContain("set PICOLLO_BASELINE_ROOT");
        notice.ShouldContain("Nothing was read or written.");

        string message = Should.Throw<PerfAssertionException>(
            () => Allocating(88).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: MappedSource, testMethod: "Allocates")).Message;
        message.ShouldContain("the baseline could not be written");
        message.ShouldContain("Cannot find the directory of the test source");
    }

    [Fact]
    public void Improvement_IsOneNoticeLine_SayingSoAndHowToLockItIn()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");
        Allocating(88).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");
        host.Notices.Clear();

        Allocating(64).ShouldNotRegress(options: Options(temp), callerFilePath: source, testMethod: "Allocates");

        string notice = host.Notices.ShouldHaveSingleItem().Message;
        notice.ShouldNotContain('\n');
        string received = temp.Combine("SampleTests.Allocates.received.perf.json");
        notice.ShouldBe($"Improved: allocated-bytes P50 -27.3% (88 → 64 bytes/op): improved (exact). Lock it in: rename {received} to SampleTests.Allocates.perf.json, or run with PICOLLO_UPDATE_BASELINES=1.");
        File.Exists(received).ShouldBeTrue();
    }

    [Fact]
    public void ExactCounter_ShowsExactPerOperationValues_InTheVerdictTheReportAndTheBaseline()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("SampleTests.cs");

        // 1,668 operations of 64 bytes: a per-sample total of 106,752 lies in a bucket whose value is 106,777 (64.015 per operation).
        SyntheticResults.Result(Allocated(0, 1_668)).ShouldNotRegress(options: Options(temp) with { UpdateBaselines = true }, callerFilePath: source, testMethod: "Allocates");

        Should.Throw<PerfAssertionException>(() => SyntheticResults.Result(Allocated(64, 1_668)).ShouldNotRegress(options: Options(temp), callerFilePath: source, testMethod: "Allocates"))
            .Message.ShouldContain("allocated-bytes P50 (0 → 64 bytes/op): regressed (exact)\n");

        string report = host.Output[^1];
        report.ShouldMatch(@"\| 50 +\| +0 \| +64 \| +\+∞ \|");
        report.ShouldMatch(@"\| Verdict: +\| +P50 \| +exact \| +regressed \|");
        report.ShouldNotContain("64.0");
        report.ShouldNotContain("d = ");
        string received = File.ReadAllText(temp.Combine("SampleTests.Allocates.received.perf.json"));
        received.ShouldContain("\"p50\": 64,");
    }

    private static BaselineStoreOptions Options(TempDirectory temp)
    {
        // Reports go to a folder the other user can write: this is about the baseline folder.
        string results = OtherUser.MakeWritableByAll(temp.Combine("results"));
        return new() { GetEnvironmentVariable = name => name == Picollo.Reporting.PerfReportWriter.ResultsDirectoryVariable ? results : null };
    }

    private static PerfResult Allocating(ulong bytesPerOperation) => SyntheticResults.Result(Allocated(bytesPerOperation, 1_000));

    private static CounterResult Allocated(ulong bytesPerOperation, long operations)
        => SyntheticResults.Counter(CounterNames.AllocatedBytes, "bytes", CounterKind.Runtime, operations, Enumerable.Repeat(bytesPerOperation * (ulong)operations, 100));
}
