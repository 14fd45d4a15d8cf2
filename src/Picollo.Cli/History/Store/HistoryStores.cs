namespace Picollo.Cli.History.Store;

/// <summary>
/// Which store a command means, and opening it: <c>--store</c>, else <c>PICOLLO_HISTORY</c>, else <c>./picollo-history.db</c>.
/// </summary>
internal static class HistoryStores
{
    /// <summary>The environment variable naming the store when <c>--store</c> does not (a CI job sets it once).</summary>
    public const string EnvironmentVariable = "PICOLLO_HISTORY";

    /// <summary>The SQLite file used when neither <c>--store</c> nor <see cref="EnvironmentVariable"/> names a store.</summary>
    public const string DefaultFile = "picollo-history.db";

    /// <summary>Opens the store <paramref name="store"/> names (see <see cref="Locate"/>), creating or migrating its schema.</summary>
    /// <param name="store">A file path or a PostgreSQL connection string, or <see langword="null"/> for the default.</param>
    /// <param name="create">
    /// Whether a store that does not exist yet is created; a command that only reads passes <see langword="false"/> and
    /// gets an error saying to add a run first.
    /// </param>
    /// <exception cref="HistoryStoreException">The store cannot be used: the message names it, the reason and the fix.</exception>
    public static IHistoryStore Open(string? store, bool create = true)
    {
        string location = Locate(store, Environment.GetEnvironmentVariable(EnvironmentVariable));
        return IsPostgres(location) ? PostgresHistoryStore.Open(location, create) : SqliteHistoryStore.Open(location, create);
    }

    /// <summary>
    /// The store meant: <paramref name="store"/>, else <paramref name="environment"/> (PICOLLO_HISTORY), else <see cref="DefaultFile"/>.
    /// </summary>
    public static string Locate(string? store, string? environment) =>
        !string.IsNullOrWhiteSpace(store) ? store.Trim()
        : !string.IsNullOrWhiteSpace(environment) ? environment.Trim()
        : DefaultFile;

    /// <summary>
    /// Whether <paramref name="location"/> is a PostgreSQL server: a <c>postgres://</c> or <c>postgresql://</c> URI, or a
    /// connection string of <c>key=value</c> pairs one of which is <c>Host</c> (or its alias <c>Server</c>); anything
    /// else is an SQLite file's path.
    /// </summary>
    public static bool IsPostgres(string location)
    {
        ArgumentNullException.ThrowIfNull(location);
        if (location.StartsWith("postgres://", StringComparison.OrdinalIgnoreCase)
            || location.StartsWith("postgresql://", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        return location.Split(';').Select(static pair => pair.Split('=', 2)).Any(static kv => kv.Length == 2
            && kv[0].Trim() is { } key
            && (key.Equals("Host", StringComparison.OrdinalIgnoreCase) || key.Equals("Server", StringComparison.OrdinalIgnoreCase)));
    }
}
