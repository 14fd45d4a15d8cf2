using System.Data;
using System.Data.Common;
using System.Globalization;
using System.Net.Sockets;
using Npgsql;

namespace Picollo.Cli.History.Store;

/// <summary>
/// The shared store: one PostgreSQL server every runner appends to, named by a connection string
/// (<c>Host=…;Username=…;Password=…;Database=…</c>) or a <c>postgres://</c> URI. One transaction per run; the schema is
/// created and migrated under a transaction-scoped advisory lock, so jobs opening a new database at once create it once.
/// </summary>
internal sealed class PostgresHistoryStore : HistoryDatabase
{
    // The advisory lock key that serializes schema changes: any constant other tools are unlikely to take ("picollo" in ASCII).
    private const long SchemaLockKey = 0x7069636F6C6C6F;

    private static readonly Dictionary<string, string> s_columnTypes = new(StringComparer.Ordinal)
    {
        ["identity"] = "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        ["timestamp"] = "TIMESTAMPTZ",
        ["boolean"] = "BOOLEAN",
        ["double"] = "DOUBLE PRECISION",
    };

    private readonly NpgsqlConnectionStringBuilder _settings;

    private PostgresHistoryStore(NpgsqlConnectionStringBuilder settings)
        : base(new NpgsqlConnection(settings.ConnectionString), Describe(settings)) => _settings = settings;

    /// <inheritdoc/>
    internal override IReadOnlyDictionary<string, string> ColumnTypes => s_columnTypes;

    /// <inheritdoc/>
    internal override string TablesQuery =>
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()";

    /// <summary>Connects to the server <paramref name="connectionString"/> names and brings its schema to this tool's version.</summary>
    /// <exception cref="HistoryStoreException">
    /// Unreachable, refused, not a Picollo store, newer, or a connection string that does not parse.
    /// </exception>
    public static PostgresHistoryStore Open(string connectionString, bool create)
    {
        var store = new PostgresHistoryStore(Settings(connectionString));
        store.Start(create);
        return store;
    }

    /// <summary>
    /// The connection settings of a keyword connection string or a <c>postgres://user:password@host:port/database?key=value</c>
    /// URI (libpq's form, which CI secrets often hold; Npgsql reads only the keyword form).
    /// </summary>
    /// <exception cref="HistoryStoreException">It does not parse; the message never repeats it, since it may hold a password.</exception>
    public static NpgsqlConnectionStringBuilder Settings(string connectionString)
    {
        ArgumentNullException.ThrowIfNull(connectionString);
        try
        {
            bool isUri = Uri.TryCreate(connectionString, UriKind.Absolute, out Uri? uri)
                && uri.Scheme.StartsWith("postgres", StringComparison.OrdinalIgnoreCase);
            NpgsqlConnectionStringBuilder settings = isUri
                ? FromUri(uri!)
                : new NpgsqlConnectionStringBuilder(connectionString);

            // One connection for the tool's one command: a pooled one would outlive it (and keep a test's database in use).
            settings.Pooling = false;
            return settings;
        }
        catch (Exception e) when (e is ArgumentException or FormatException or KeyNotFoundException)
        {
            throw new HistoryStoreException(HistoryMessages.BadConnectionString(e.Message), e);
        }
    }

    /// <inheritdoc/>
    internal override DbTransaction BeginWrite() => Connection.BeginTransaction(IsolationLevel.ReadCommitted);

    /// <inheritdoc/>
    internal override void LockSchema(DbTransaction transaction)
    {
        using DbCommand command = HistorySql.Command(Connection, transaction, "SELECT pg_advisory_xact_lock(@key)");
        HistorySql.Bind(command, "key", SchemaLockKey);
        command.ExecuteNonQuery();
    }

    /// <inheritdoc/>
    internal override HistoryStoreException Translate(DbException exception)
    {
        string server = Server(_settings);
        return exception switch
        {
            PostgresException { SqlState: PostgresErrorCodes.InvalidPassword or PostgresErrorCodes.InvalidAuthorizationSpecification } e =>
                new(HistoryMessages.ServerRefusedLogin(server, _settings.Username, e.MessageText), e),
            PostgresException { SqlState: PostgresErrorCodes.InvalidCatalogName } e =>
                new(HistoryMessages.NoSuchDatabase(server, _settings.Database, _settings.Username), e),
            PostgresException { SqlState: PostgresErrorCodes.InsufficientPrivilege } e =>
                new(HistoryMessages.NoPrivilege(Name, _settings.Username, e.MessageText), e),
            PostgresException e => new(HistoryMessages.StoreFailed(Name, $"{e.MessageText} (SQLSTATE {e.SqlState})"), e),
            NpgsqlException { InnerException: SocketException or TimeoutException or IOException } e =>
                new(HistoryMessages.ServerUnreachable(server, e.InnerException!.Message), e),
            _ => new(HistoryMessages.StoreFailed(Name, exception.Message), exception),
        };
    }

    // host:port as messages name the server.
    private static string Server(NpgsqlConnectionStringBuilder settings) =>
        string.Create(CultureInfo.InvariantCulture, $"{settings.Host}:{settings.Port}");

    // What messages and the tool's output call the store: the database and its server, never the password.
    private static string Describe(NpgsqlConnectionStringBuilder settings) =>
        $"PostgreSQL database {settings.Database ?? settings.Username} at {Server(settings)}";

    private static NpgsqlConnectionStringBuilder FromUri(Uri uri)
    {
        var settings = new NpgsqlConnectionStringBuilder { Host = uri.Host };
        if (!uri.IsDefaultPort && uri.Port > 0)
            settings.Port = uri.Port;
        string[] user = uri.UserInfo.Split(':', 2);
        if (user[0].Length > 0)
            settings.Username = Uri.UnescapeDataString(user[0]);
        if (user.Length == 2)
            settings.Password = Uri.UnescapeDataString(user[1]);
        string database = Uri.UnescapeDataString(uri.AbsolutePath.TrimStart('/'));
        if (database.Length > 0)
            settings.Database = database;
        foreach (string pair in uri.Query.TrimStart('?').Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            string[] kv = pair.Split('=', 2);
            string key = Uri.UnescapeDataString(kv[0]) switch { "sslmode" => "SSL Mode", string other => other };
            settings[key] = kv.Length == 2 ? Uri.UnescapeDataString(kv[1]) : "";
        }

        return settings;
    }
}
