using System.Collections.Concurrent;
using System.Data;
using System.Data.Common;

namespace Picollo.Cli.History.Store;

/// <summary>
/// The store's SQL, one file per statement under <c>History/Store/Sql</c> (embedded): the same text for SQLite and
/// PostgreSQL wherever the dialects agree, which is every statement but the schema's column types; and binding
/// parameters the way both drivers read them.
/// </summary>
internal static class HistorySql
{
    private static readonly ConcurrentDictionary<string, string> s_texts = new(StringComparer.Ordinal);

    /// <summary>The statement in <c>Sql/<paramref name="name"/>.sql</c>.</summary>
    public static string Text(string name) => s_texts.GetOrAdd(name, static n =>
    {
        using Stream stream = typeof(HistorySql).Assembly.GetManifestResourceStream($"Picollo.Cli.History.Sql.{n}.sql")
            ?? throw new InvalidOperationException($"The tool was built without its SQL statement {n}.sql.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    });

    /// <summary>A command on <paramref name="transaction"/>'s connection (or <paramref name="connection"/>'s, outside one).</summary>
    public static DbCommand Command(DbConnection connection, DbTransaction? transaction, string text)
    {
        DbCommand command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = text;
        return command;
    }

    /// <summary>
    /// Sets parameter <paramref name="name"/> (<c>@name</c> in the SQL) to <paramref name="value"/>, adding it on first use so
    /// a prepared insert is bound again row by row. A null is typed (text by default): PostgreSQL must know the type of
    /// <c>@branch IS NULL</c>, and both drivers store it as NULL.
    /// </summary>
    public static void Bind(DbCommand command, string name, object? value, DbType nullType = DbType.String) =>
        Bind(command.Parameters, command.CreateParameter, name, value, nullType);

    /// <summary>
    /// Sets parameter <paramref name="name"/> of one command of a batch, as <see cref="Bind(DbCommand, string, object?, DbType)"/> does.
    /// </summary>
    public static void Bind(DbBatchCommand command, string name, object? value) =>
        Bind(command.Parameters, command.CreateParameter, name, value, DbType.String);

    private static void Bind(DbParameterCollection parameters, Func<DbParameter> create, string name, object? value, DbType nullType)
    {
        string parameterName = "@" + name;
        DbParameter parameter;
        if (parameters.Contains(parameterName))
        {
            parameter = parameters[parameterName];
        }
        else
        {
            parameter = create();
            parameter.ParameterName = parameterName;
            parameters.Add(parameter);
        }

        parameter.Value = value ?? DBNull.Value;
        if (value is null)
            parameter.DbType = nullType;
    }

    /// <summary>A column that may be NULL, as text.</summary>
    public static string? NullableString(DbDataReader reader, int ordinal) => reader.IsDBNull(ordinal) ? null : reader.GetString(ordinal);

    /// <summary>
    /// A time column as UTC: PostgreSQL's timestamptz reads as UTC; SQLite keeps the text the driver wrote for a UTC
    /// <see cref="DateTime"/> and reads it back unspecified.
    /// </summary>
    public static DateTime Utc(DbDataReader reader, int ordinal) => DateTime.SpecifyKind(reader.GetDateTime(ordinal), DateTimeKind.Utc);
}
