using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Storage;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Every message about a baseline file itself (<see cref="BaselineFileMessages"/>, issue 28) in real situations: an
/// unreadable file, a folder that cannot be found, locked or written, and what accepting a received file drops. A change
/// to any of them is a reviewed diff of <c>Approved/BaselineFileMessages.approved.md</c>.
/// </summary>
public sealed class BaselineFileMessagesTests
{
    private const string Baseline = "/src/app/tests/Perf/ParserPerf.Parse.perf.json";

    [Fact]
    public void EveryMessage_ReadsAsItsSituation()
    {
        var text = new StringBuilder();
        Case(text, "InvalidFile: a file", BaselineFileMessages.InvalidFile(
            Baseline, "$.entries['3f2a…'].counters['tsc'].unit", BaselineFileMessages.MissingField("unit", "\"ns\"")));
        Case(text, "InvalidFile: text", BaselineFileMessages.InvalidFile(
            null, "line 12, byte 7", "'<' is an invalid start of a value (a merge conflict marker?)."));
        Case(text, nameof(BaselineFileMessages.MissingField), BaselineFileMessages.MissingField("recordedUtc", "\"2025-01-01T00:00:00Z\""));
        Case(text, nameof(BaselineFileMessages.UnsupportedFormatVersion), BaselineFileMessages.UnsupportedFormatVersion(3, 2));
        Case(text, nameof(BaselineFileMessages.EntryKeyMismatch), BaselineFileMessages.EntryKeyMismatch("linux-x64-9c1e0b2d"));
        Case(text, nameof(BaselineFileMessages.CouldNotWrite),
            BaselineFileMessages.CouldNotWrite("write the received file", "/src/app/tests/Perf/ParserPerf.Parse.received.perf.json",
                "the folder /src/app/tests/Perf is not writable for this user"));
        Case(text, nameof(BaselineFileMessages.AcceptingReplacesLevels), BaselineFileMessages.AcceptingReplacesLevels(4));
        Case(text, "LockHeldTooLong: writing a baseline",
            BaselineFileMessages.LockHeldTooLong("/src/app/tests/Perf", 30, "ParserPerf.Parse.perf.json"));
        Case(text, "LockHeldTooLong: the folder", BaselineFileMessages.LockHeldTooLong("/src/app/tests/Perf", 2.5, null));
        Case(text, nameof(BaselineFileMessages.SourceFolderNotFound), BaselineFileMessages.SourceFolderNotFound(
            "/_/tests/Perf/ParserPerf.cs", ["/_/tests/Perf/ParserPerf.cs", "/home/runner/work/app/tests/Perf/ParserPerf.cs"]));

        Approvals.Verify(text.ToString(), nameof(BaselineFileMessages));
    }

    private static void Case(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
