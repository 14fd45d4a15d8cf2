using System.Text;
using Picollo.Cli;
using Picollo.Cli.History;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// What <c>picollo history</c> tells the user about its store and runs (issue 52): every kind <see cref="HistoryMessages"/>
/// builds, in the golden file <c>Approved/HistoryMessages.approved.md</c>.
/// </summary>
public sealed class HistoryMessagesTests
{
    private const string File = "/home/ci/cache/picollo-history.db";
    private const string Server = "PostgreSQL database perf at db.example.org:5432";

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, nameof(HistoryMessages.NewerSchema), HistoryMessages.NewerSchema(Server, 3, 1));
        Case(text, "ForeignStore: one table", HistoryMessages.ForeignStore(File, ["customers"]));
        Case(text, "ForeignStore: many tables", HistoryMessages.ForeignStore(Server, ["a", "b", "c", "d", "e", "f", "g"]));
        Case(text, "ForeignMetadata: another application", HistoryMessages.ForeignMetadata(File, "other-tool", "1"));
        Case(text, "ForeignMetadata: no marker", HistoryMessages.ForeignMetadata(File, null, null));
        Case(text, "ForeignMetadata: Picollo's marker, a version that is not one", HistoryMessages.ForeignMetadata(File, "picollo-history", "two"));
        Case(text, nameof(HistoryMessages.NoStoreYet), HistoryMessages.NoStoreYet(File));
        Case(text, nameof(HistoryMessages.StoreIsAFolder), HistoryMessages.StoreIsAFolder("/home/ci/cache"));
        Case(text, nameof(HistoryMessages.CorruptFile), HistoryMessages.CorruptFile(File, "SQLite Error 26: 'file is not a database'."));
        Case(text, nameof(HistoryMessages.CannotOpenFile), HistoryMessages.CannotOpenFile(File, "SQLite Error 14: 'unable to open database file'."));
        Case(text, nameof(HistoryMessages.ReadOnlyFile), HistoryMessages.ReadOnlyFile(File, "SQLite Error 8: 'attempt to write a readonly database'."));
        Case(text, nameof(HistoryMessages.FileBusy), HistoryMessages.FileBusy(File, 60, "SQLite Error 5: 'database is locked'."));
        Case(text, nameof(HistoryMessages.StoreFailed), HistoryMessages.StoreFailed(Server, "disk full (SQLSTATE 53100)"));
        Case(text, nameof(HistoryMessages.BadConnectionString), HistoryMessages.BadConnectionString("Keyword not supported: 'frobnicate'"));
        Case(text, nameof(HistoryMessages.ServerUnreachable), HistoryMessages.ServerUnreachable("db.example.org:5432", "Connection refused"));
        Case(text, nameof(HistoryMessages.ServerRefusedLogin), HistoryMessages.ServerRefusedLogin(
            "db.example.org:5432", "ci", "password authentication failed for user \"ci\""));
        Case(text, nameof(HistoryMessages.NoSuchDatabase), HistoryMessages.NoSuchDatabase("db.example.org:5432", "perf", "ci"));
        Case(text, nameof(HistoryMessages.NoPrivilege), HistoryMessages.NoPrivilege(Server, "ci", "permission denied for schema public"));
        Case(text, "Added: a commit", HistoryMessages.Added(412, 100, 300, Server, "a3f9c2e1b7d04c55", "9fceb02d0ae5"));
        Case(text, "Added: one test, no commit", HistoryMessages.Added(1, 1, 1, File, "a3f9c2e1b7d04c55", null));
        Case(text, nameof(HistoryMessages.NoCommit), HistoryMessages.NoCommit("/home/ci/work", "fatal: not a git repository (or any of the parent directories): .git"));
        var corrupt = new UnreadableResult("/home/ci/work/results/Parser.Parse.result.json", "not a Picollo result file: 'x' is an invalid start of a value.");
        Case(text, nameof(HistoryMessages.ResultFileSkipped), HistoryMessages.ResultFileSkipped(corrupt));
        Case(text, nameof(HistoryMessages.NothingToAdd), HistoryMessages.NothingToAdd("/home/ci/work/results"));
        Case(text, "NoneReadable: one file", HistoryMessages.NoneReadable("/home/ci/work/results", 1));
        Case(text, "NoneReadable: three files", HistoryMessages.NoneReadable("/home/ci/work/results", 3));
        Case(text, nameof(HistoryMessages.NoCounters), HistoryMessages.NoCounters("/home/ci/work/results"));
        Case(text, nameof(HistoryMessages.NoFolder), HistoryMessages.NoFolder("/home/ci/work/results"));
        Case(text, nameof(HistoryMessages.KeepHistogramsNotPositive), HistoryMessages.KeepHistogramsNotPositive("prune", -3));
        Case(text, "Pruned: many", HistoryMessages.Pruned(1_204, 90, File));
        Case(text, "Pruned: one", HistoryMessages.Pruned(1, 0.5, Server));

        Approvals.Verify(text.ToString(), "HistoryMessages");
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
