using System.Data.Common;
using System.Globalization;

namespace Picollo.Cli.History.Store;

/// <summary>
/// The store's schema version and its creation and migration: <c>picollo_metadata</c> holds an application
/// marker, so a foreign SQLite file or database is recognised, and the schema version, so a store written by a newer
/// tool is refused before anything is written. Migration <c>Schema&lt;N&gt;.sql</c> brings version N-1 to N.
/// </summary>
internal static class HistorySchema
{
    /// <summary>The schema version this tool writes and reads.</summary>
    public const int Current = 1;

    /// <summary>The application marker in <c>picollo_metadata</c>.</summary>
    public const string Application = "picollo-history";

    /// <summary>The metadata table: present in every Picollo store, absent from every other.</summary>
    public const string MetadataTable = "picollo_metadata";

    /// <summary>
    /// Creates the schema of an empty store, migrates an older one, and refuses a foreign or newer one, inside one write
    /// transaction under the dialect's schema lock: several jobs opening a new store at once create it once, and a
    /// refusal writes nothing.
    /// </summary>
    /// <exception cref="HistoryStoreException">Foreign, newer, or (with <paramref name="create"/> false) not created yet.</exception>
    public static void Ensure(HistoryDatabase database, bool create)
    {
        using DbTransaction transaction = database.BeginWrite();
        database.LockSchema(transaction);
        int version = Version(database, transaction, create);
        if (version > Current)
            throw new HistoryStoreException(HistoryMessages.NewerSchema(database.Name, version, Current));
        if (version == Current)
            return;

        for (int next = version + 1; next <= Current; next++)
            Execute(database, transaction, Migration(database, next));
        WriteMetadata(database, transaction, version);
        transaction.Commit();
    }

    // The store's schema version; 0 for an empty store to be created.
    private static int Version(HistoryDatabase database, DbTransaction transaction, bool create)
    {
        List<string> tables = Strings(database, transaction, database.TablesQuery);
        if (!tables.Contains(MetadataTable, StringComparer.OrdinalIgnoreCase))
        {
            if (tables.Count > 0)
                throw new HistoryStoreException(HistoryMessages.ForeignStore(database.Name, [.. tables.Order(StringComparer.Ordinal)]));
            return create ? 0 : throw new HistoryStoreException(HistoryMessages.NoStoreYet(database.Name));
        }

        var metadata = new Dictionary<string, string>(StringComparer.Ordinal);
        using (DbCommand command = HistorySql.Command(database.Connection, transaction, HistorySql.Text("Metadata")))
        using (DbDataReader reader = command.ExecuteReader())
        {
            while (reader.Read())
                metadata[reader.GetString(0)] = reader.GetString(1);
        }

        string? application = metadata.GetValueOrDefault("application"), text = metadata.GetValueOrDefault("schema_version");
        if (application != Application || !int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int version)
            || version < 1)
            throw new HistoryStoreException(HistoryMessages.ForeignMetadata(database.Name, application, text));

        return version;
    }

    // Schema<N>.sql with the dialect's column types in place of its placeholders.
    private static string Migration(HistoryDatabase database, int version)
    {
        string text = HistorySql.Text($"Schema{version}");
        foreach ((string placeholder, string type) in database.ColumnTypes)
            text = text.Replace("{" + placeholder + "}", type, StringComparison.Ordinal);
        return text;
    }

    private static void WriteMetadata(HistoryDatabase database, DbTransaction transaction, int from)
    {
        string text = HistorySql.Text(from == 0 ? "InsertMetadata" : "UpdateVersion");
        using DbCommand command = HistorySql.Command(database.Connection, transaction, text);
        if (from == 0)
            HistorySql.Bind(command, "application", Application);
        HistorySql.Bind(command, "version", Current.ToString(CultureInfo.InvariantCulture));
        command.ExecuteNonQuery();
    }

    private static void Execute(HistoryDatabase database, DbTransaction transaction, string text)
    {
        using DbCommand command = HistorySql.Command(database.Connection, transaction, text);
        command.ExecuteNonQuery();
    }

    private static List<string> Strings(HistoryDatabase database, DbTransaction transaction, string text)
    {
        var values = new List<string>();
        using DbCommand command = HistorySql.Command(database.Connection, transaction, text);
        using DbDataReader reader = command.ExecuteReader();
        while (reader.Read())
            values.Add(reader.GetString(0));
        return values;
    }
}
