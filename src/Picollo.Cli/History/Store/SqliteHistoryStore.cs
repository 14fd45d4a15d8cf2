using System.Data;
using System.Data.Common;
using Microsoft.Data.Sqlite;

namespace Picollo.Cli.History.Store;

/// <summary>
/// The embedded store: one SQLite file, kept by CI as a cache or artifact. Write-ahead logging lets readers
/// read while a run is appended; every write transaction begins IMMEDIATE, taking the file's write lock at its start, and
/// waits for another process's lock up to the busy timeout, so two processes appending at once both land, one after the other.
/// </summary>
internal sealed class SqliteHistoryStore : HistoryDatabase
{
    // How long a writer waits for another process's write lock before giving up: a run of hundreds of results commits in
    // milliseconds, so a minute covers many CI jobs appending to one file (a shared volume) at once.
    private const int BusyTimeoutSeconds = 60;

    private static readonly Dictionary<string, string> s_columnTypes = new(StringComparer.Ordinal)
    {
        // AUTOINCREMENT: ids only grow, never reused after a delete, so a run id names one run for good.
        ["identity"] = "INTEGER PRIMARY KEY AUTOINCREMENT",
        ["timestamp"] = "TEXT",
        ["boolean"] = "INTEGER",
        ["double"] = "REAL",
    };

    private readonly string _path;

    private SqliteHistoryStore(string path)
        : base(new SqliteConnection(ConnectionString(path)), path) => _path = path;

    /// <inheritdoc/>
    internal override IReadOnlyDictionary<string, string> ColumnTypes => s_columnTypes;

    /// <inheritdoc/>
    // sqlite_sequence and the other sqlite_ tables are SQLite's own (AUTOINCREMENT creates one).
    internal override string TablesQuery =>
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

    /// <summary>Opens the file at <paramref name="path"/>, creating it (and its schema) when <paramref name="create"/> allows.</summary>
    /// <exception cref="HistoryStoreException">Not a Picollo store, corrupt, newer, or cannot be opened.</exception>
    public static SqliteHistoryStore Open(string path, bool create)
    {
        string full = Path.GetFullPath(path);
        if (Directory.Exists(full))
            throw new HistoryStoreException(HistoryMessages.StoreIsAFolder(full));
        if (!create && !File.Exists(full))
            throw new HistoryStoreException(HistoryMessages.NoStoreYet(full));
        var store = new SqliteHistoryStore(full);
        store.Start(create);
        return store;
    }

    /// <inheritdoc/>
    // BEGIN IMMEDIATE (the driver's default for a non-deferred transaction): the write lock is taken at the start, so two
    // writers never both read under a shared lock and then deadlock upgrading it, which SQLite answers with SQLITE_BUSY
    // at once, busy timeout or not.
    internal override DbTransaction BeginWrite() =>
        ((SqliteConnection)Connection).BeginTransaction(IsolationLevel.Serializable, deferred: false);

    /// <inheritdoc/>
    // BEGIN IMMEDIATE already serializes the schema's creation among processes.
    internal override void LockSchema(DbTransaction transaction)
    {
    }

    /// <inheritdoc/>
    internal override void Prepare()
    {
        using DbCommand command = HistorySql.Command(
            Connection, null, $"PRAGMA busy_timeout = {BusyTimeoutSeconds * 1000}; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;");
        command.ExecuteNonQuery();
    }

    /// <inheritdoc/>
    internal override HistoryStoreException Translate(DbException exception) => exception switch
    {
        SqliteException { SqliteErrorCode: SQLitePCL.raw.SQLITE_CORRUPT or SQLitePCL.raw.SQLITE_NOTADB } e =>
            new(HistoryMessages.CorruptFile(_path, e.Message), e),
        SqliteException { SqliteErrorCode: SQLitePCL.raw.SQLITE_CANTOPEN } e => new(HistoryMessages.CannotOpenFile(_path, e.Message), e),
        SqliteException { SqliteErrorCode: SQLitePCL.raw.SQLITE_READONLY or SQLitePCL.raw.SQLITE_PERM } e =>
            new(HistoryMessages.ReadOnlyFile(_path, e.Message), e),
        SqliteException { SqliteErrorCode: SQLitePCL.raw.SQLITE_BUSY or SQLitePCL.raw.SQLITE_LOCKED } e =>
            new(HistoryMessages.FileBusy(_path, BusyTimeoutSeconds, e.Message), e),
        _ => new(HistoryMessages.StoreFailed(_path, exception.Message), exception),
    };

    // No pooling: the tool opens the file once, and a pooled handle would keep it open after Dispose (a test could not
    // delete it, a CI step could not move it).
    private static string ConnectionString(string path) => new SqliteConnectionStringBuilder
    {
        DataSource = path,
        Mode = SqliteOpenMode.ReadWriteCreate,
        Pooling = false,
        DefaultTimeout = BusyTimeoutSeconds,
    }.ToString();
}
