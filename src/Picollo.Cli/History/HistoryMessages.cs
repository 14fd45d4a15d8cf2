using System.Globalization;
using Picollo.Text;

namespace Picollo.Cli.History;

/// <summary>
/// What <c>picollo history</c> tells the user about its store and the runs it adds: why a store cannot be used
/// and how to fix it, what was added or pruned, and what was skipped. Each method is one situation, taking the facts it
/// states; the golden file <c>HistoryMessages.approved.md</c> shows every one. A store's name never holds a password.
/// </summary>
internal static class HistoryMessages
{
    // How a user names another store, as the fixes say it.
    private const string OtherStore = "give --store <file or connection string> or set PICOLLO_HISTORY";

    /// <summary>The store's schema is newer than this tool's: nothing was written.</summary>
    public static string NewerSchema(string store, int found, int known) =>
        $"{store} was written by a newer picollo (schema {found}, this tool knows {known}): update the tool "
            + "(dotnet tool update Picollo.Tool) to read or add to it. Nothing was written.";

    /// <summary>An SQLite file or database holds tables of another application and no Picollo metadata.</summary>
    public static string ForeignStore(string store, IReadOnlyList<string> tables) =>
        $"{store} is not a Picollo history store: it holds {Tables(tables)} and no picollo_metadata table. Nothing was "
            + $"written to it; {OtherStore} to a new file or an empty database.";

    /// <summary>
    /// The metadata table is there, but its application marker is not Picollo's (<paramref name="application"/>, null when
    /// absent) or, with Picollo's marker, its schema version is not a version (<paramref name="version"/>, null when absent).
    /// </summary>
    public static string ForeignMetadata(string store, string? application, string? version) =>
        $"{store} is not a Picollo history store: its picollo_metadata table "
            + (application is null ? "has no application marker"
                : application != Store.HistorySchema.Application ? $"names the application '{application}'"
                : $"holds no valid schema version ({(version is null ? "none" : $"'{version}'")})")
            + $". Nothing was written to it; {OtherStore} to a new file or an empty database.";

    /// <summary>A command that only reads found no store: no run was added yet.</summary>
    public static string NoStoreYet(string store) =>
        $"No results history at {store}: no run was added there yet. Add one with picollo history add <results folder>, "
            + $"or {OtherStore} to the store your CI job adds to.";

    /// <summary>The SQLite path names a folder.</summary>
    public static string StoreIsAFolder(string path) =>
        $"{path} is a folder, not a history file: name a file in it "
            + $"(e.g. {Path.Combine(path, Store.HistoryStores.DefaultFile)}), or {OtherStore}.";

    /// <summary>The SQLite file is damaged or another kind of file.</summary>
    public static string CorruptFile(string path, string reason) =>
        $"{path} is not a readable SQLite history file ({Sentences.Unended(reason)}): it is damaged or another kind of file. "
            + "Restore it from the CI cache or artifact it came from, or move it away to start a new history there "
            + "(the runs it held are then lost). Nothing was written.";

    /// <summary>The SQLite file cannot be opened or created.</summary>
    public static string CannotOpenFile(string path, string reason) =>
        $"Cannot open or create the history file {path} ({Sentences.Unended(reason)}): create its folder or allow this user to "
            + $"write there, or {OtherStore}.";

    /// <summary>The SQLite file (or its folder, where the write-ahead log goes) is read-only.</summary>
    public static string ReadOnlyFile(string path, string reason) =>
        $"The history file {path} is read-only ({Sentences.Unended(reason)}): SQLite writes the file and its -wal and -shm files "
            + $"beside it, so allow this user to write the file and its folder, or {OtherStore}. Nothing was written.";

    /// <summary>Another process held the SQLite file's write lock longer than the busy timeout.</summary>
    public static string FileBusy(string path, int seconds, string reason) =>
        $"The history file {path} stayed locked by another process for {seconds} s ({Sentences.Unended(reason)}): nothing was "
            + "written. Run the command again once the other picollo or SQLite process is done, or give each job its own file.";

    /// <summary>Any other error of the store's driver.</summary>
    public static string StoreFailed(string store, string reason) =>
        $"The results history {store} failed: {Sentences.Unended(reason)}. Nothing was written; run the command again, or "
            + $"{OtherStore}.";

    /// <summary>The PostgreSQL connection string or URI does not parse (it is not repeated: it may hold a password).</summary>
    public static string BadConnectionString(string reason) =>
        $"The PostgreSQL connection string does not parse ({Sentences.Unended(reason)}): write it as "
            + "Host=<host>;Port=5432;Username=<user>;Password=<password>;Database=<database>, or as "
            + "postgres://<user>:<password>@<host>:5432/<database>, in --store or PICOLLO_HISTORY.";

    /// <summary>Nothing answered at the server's host and port.</summary>
    public static string ServerUnreachable(string server, string reason) =>
        $"Cannot reach the PostgreSQL server at {server} ({Sentences.Unended(reason)}): start it, or check the host and port, "
            + $"or {OtherStore} to a server that runs. Nothing was written.";

    /// <summary>The server refused the user's login.</summary>
    public static string ServerRefusedLogin(string server, string? user, string reason) =>
        $"The PostgreSQL server at {server} refused the login of user '{user}' ({Sentences.Unended(reason)}): check the "
            + "Username and Password of the connection string in --store or PICOLLO_HISTORY. Nothing was written.";

    /// <summary>The database the connection string names does not exist.</summary>
    public static string NoSuchDatabase(string server, string? database, string? user) =>
        $"The PostgreSQL server at {server} has no database '{database}': create it (createdb -h <host> -U {user} {database}, "
            + "or CREATE DATABASE as a user who may) or name one that exists in the connection string's Database.";

    /// <summary>The user may not create the schema's tables or write them.</summary>
    public static string NoPrivilege(string store, string? user, string reason) =>
        $"User '{user}' may not create or write the history's tables in {store} ({Sentences.Unended(reason)}): grant it "
            + "CREATE on the schema and write on the tables, or connect as their owner. Nothing was written.";

    /// <summary>The one line <c>picollo history add</c> prints for a run it added.</summary>
    public static string Added(long run, int tests, int counters, string store, string machine, string? commit) =>
        string.Create(CultureInfo.InvariantCulture, $"picollo history: added run {run} ({tests} test{(tests == 1 ? "" : "s")}, ")
            + string.Create(CultureInfo.InvariantCulture, $"{counters} counter{(counters == 1 ? "" : "s")}) to {store} for {machine} at ")
            + (commit ?? "no commit") + ".";

    /// <summary>After <see cref="Added"/> when the current folder is not a git repository and no --commit was given.</summary>
    public static string NoCommit(string directory, string reason) =>
        $"picollo history: {directory} is not a git repository ({Sentences.Unended(reason)}), so the run has no commit or branch: "
            + "run it in the repository that was measured, or give --commit <sha> --branch <name>.";

    /// <summary>A result file of the folder could not be read: named and skipped, the others are added.</summary>
    public static string ResultFileSkipped(UnreadableResult file) =>
        $"picollo history add: skipped {Sentences.Ended(file.ToString())} {file.Test} is not in the run; run its perf test "
            + "again to rewrite the file, or remove the file.";

    /// <summary>The results folder holds no result file.</summary>
    public static string NothingToAdd(string folder) =>
        $"picollo history add: no result file (*.result.json) under {folder}: nothing to add, nothing written. Give the "
            + "folder the perf tests wrote (the test project's TestResults/picollo, or PICOLLO_RESULTS_DIR).";

    /// <summary>The results folder holds result files and none could be read.</summary>
    public static string NoneReadable(string folder, int files) =>
        "picollo history add: "
            + (files == 1 ? "the one result file" : string.Create(CultureInfo.InvariantCulture, $"none of the {files} result files"))
            + $" under {folder} could {(files == 1 ? "not " : "")}be read (the reason{(files == 1 ? " is" : "s are")} above): "
            + $"nothing written. Run the perf tests again to rewrite {(files == 1 ? "it" : "them")}.";

    /// <summary>The result files hold no counter that was measured (every counter unavailable).</summary>
    public static string NoCounters(string folder) =>
        $"picollo history add: the result files under {folder} hold no measured counter (each says why it was unavailable): "
            + "nothing to add, nothing written. Run the perf tests where their counters count (picollo doctor).";

    /// <summary>The results folder does not exist.</summary>
    public static string NoFolder(string folder) =>
        $"picollo history add: no folder {folder}: give a run's results folder (the test project's TestResults/picollo, "
            + "or PICOLLO_RESULTS_DIR).";

    /// <summary><c>--keep-histograms</c> is not a positive number of days.</summary>
    public static string KeepHistogramsNotPositive(string command, double days) =>
        string.Create(CultureInfo.InvariantCulture, $"picollo history {command}: --keep-histograms {days} is not a number of days above 0 ")
            + "and at most 36,500: give how many days of histograms to keep (e.g. 90); the summaries are kept for good.";

    /// <summary>What retention dropped.</summary>
    public static string Pruned(int results, double days, string store) =>
        string.Create(CultureInfo.InvariantCulture, $"picollo history: dropped the histograms of {results:#,0} result")
            + string.Create(CultureInfo.InvariantCulture, $"{(results == 1 ? "" : "s")} older than {days:0.##} days from {store}; ")
            + "their summaries stay.";

    private static string Tables(IReadOnlyList<string> tables) =>
        tables.Count switch
        {
            1 => $"a table {tables[0]}",
            <= 5 => $"the tables {string.Join(", ", tables)}",
            _ => $"{tables.Count.ToString(CultureInfo.InvariantCulture)} tables ({string.Join(", ", tables.Take(5))}, …)",
        };
}
