using System.Text;
using Picollo.Cli;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli;

/// <summary>
/// What picollo's commands tell the user beyond their reports (issue 28): every kind <see cref="CliMessages"/> builds, in
/// situations a user meets, in the golden file <c>Approved/CliMessages.approved.md</c>.
/// </summary>
public sealed class CliMessagesTests
{
    private const string Repo = "/home/dev/shop";

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, "NoTestNamed: a misspelled method, with the nearest names",
            CliMessages.NoTestNamed("Tokenise", Repo, ["TokenizerPerf.Tokenize", "TokenizerPerf.TokenizeLarge"]));
        Case(text, "NoTestNamed: a folder without any baseline", CliMessages.NoTestNamed("Tokenize", Repo + "/docs", []));
        Case(text, nameof(CliMessages.DryRunChangedNothing), CliMessages.DryRunChangedNothing());
        string dropped = CliMessages.LevelsDropped(5, "P10 spread ±3.1 %", 1);
        Case(text, "LevelsDropped: a five-process entry with its spread, replaced by a one-process recording", dropped);
        Case(text, "LevelsDropped: one level recorded across three processes, replaced by a two-process recording",
            CliMessages.LevelsDropped(3, "", 2));
        Case(text, nameof(CliMessages.AcceptingDropsLevels), CliMessages.AcceptingDropsLevels(dropped));
        Case(text, nameof(CliMessages.KeepLevelsByRecordingAgain), CliMessages.KeepLevelsByRecordingAgain());
        Case(text, nameof(CliMessages.NoBaselineFiles), CliMessages.NoBaselineFiles(Repo));
        var corrupt = new UnreadableResult(
            Repo + "/head/TokenizerPerf.Tokenize.result.json",
            "not a Picollo result file: 'x' is an invalid start of a value. LineNumber: 0 | BytePositionInLine: 0.");
        Case(text, nameof(CliMessages.ResultFileSkipped), CliMessages.ResultFileSkipped(corrupt, "head"));
        Case(text, nameof(CliMessages.HeadHasNoResults), CliMessages.HeadHasNoResults(Repo + "/head"));
        Case(text, nameof(CliMessages.HeadResultsUnreadable), CliMessages.HeadResultsUnreadable(Repo + "/head"));
        Case(text, "BaseHasNoResults: an empty base folder", CliMessages.BaseHasNoResults(Repo + "/base", someUnreadable: false));
        Case(text, "BaseHasNoResults: a base folder whose files could not be read",
            CliMessages.BaseHasNoResults(Repo + "/base", someUnreadable: true));
        Case(text, nameof(CliMessages.NoTestInBothRuns), CliMessages.NoTestInBothRuns());
        Case(text, nameof(CliMessages.TimeUnconfirmedAcrossRuns), CliMessages.TimeUnconfirmedAcrossRuns(
            "tsc P10 +34.9% (18.9 → 25.5 ticks/op), z = 14.2, Cohen's d = 3.1, detects ≥ 7.2%", 1.0));
        Case(text, "RunFolderMissing: the base", CliMessages.RunFolderMissing("base", Repo + "/main-results"));
        Case(text, "RunFolderMissing: the head", CliMessages.RunFolderMissing("head", Repo + "/pr-results"));
        Case(text, "NothingWrittenForUnreadable: one file", CliMessages.NothingWrittenForUnreadable(1));
        Case(text, "NothingWrittenForUnreadable: three files", CliMessages.NothingWrittenForUnreadable(3));
        Case(text, nameof(CliMessages.NoResultsToReport), CliMessages.NoResultsToReport(Repo + "/tests/Shop.PerfTests/TestResults/picollo"));
        Case(text, nameof(CliMessages.NoResultsFolder), CliMessages.NoResultsFolder(Repo + "/TestResults/picollo"));
        Case(text, "HardwareCounters: usable", CliMessages.HardwareCounters(usable: true, simulated: true));
        Case(text, "HardwareCounters: not usable (a VM without a virtual PMU)", CliMessages.HardwareCounters(usable: false, simulated: false));
        Case(
            text, "HardwareCounters: not usable, simulated counters count", CliMessages.HardwareCounters(usable: false, simulated: true));

        Approvals.Verify(text.ToString(), "CliMessages");
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
