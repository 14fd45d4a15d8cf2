using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// A fresh store for one test: an SQLite file in a temporary folder, or a database of its own on the PostgreSQL server
/// PICOLLO_TEST_POSTGRES names (created, and dropped after), so the same assertions run against both (issue 52: a real
/// server, not a mock). Without the variable the PostgreSQL cases skip, saying how to start one.
/// </summary>
internal sealed class HistoryTestStore : IDisposable
{
    /// <summary>The environment variable naming the test server (an admin connection string whose user may CREATE DATABASE).</summary>
    public const string ServerVariable = "PICOLLO_TEST_POSTGRES";

    private readonly TempDirectory? _dir;
    private readonly string? _database;

    private HistoryTestStore(string kind, string location, TempDirectory? dir, string? database)
    {
        Kind = kind;
        Location = location;
        _dir = dir;
        _database = database;
    }

    /// <summary>The store kinds the theories run over.</summary>
    public static TheoryData<string> Kinds => ["sqlite", "postgres"];

    /// <summary>"sqlite" or "postgres".</summary>
    public string Kind { get; }

    /// <summary>What <c>--store</c> takes: the file's path or the connection string.</summary>
    public string Location { get; }

    /// <summary>The admin connection string of the test server; skips the test when it is not set.</summary>
    public static string Server()
    {
        string? server = Environment.GetEnvironmentVariable(ServerVariable);
        Assert.SkipWhen(
            string.IsNullOrWhiteSpace(server),
            $"{ServerVariable} is not set, so the PostgreSQL store is not tested here. Start a server (Debian: apt-get install "
            + "postgresql; pg_ctlcluster 15 main start; a role with CREATEDB) and set "
            + $"{ServerVariable}=Host=localhost;Username=<role>;Password=<password>;Database=<a database of the role>, as .ci/run does.");
        return server!;
    }

    /// <summary>A new, empty store of <paramref name="kind"/>.</summary>
    public static HistoryTestStore Create(string kind)
    {
        if (kind == "sqlite")
        {
            var dir = new TempDirectory();
            return new HistoryTestStore(kind, dir.Combine("history.db"), dir, null);
        }

        var admin = new NpgsqlConnectionStringBuilder(Server());
        string database = "picollo_test_" + Guid.NewGuid().ToString("N");
        Admin(admin, $"CREATE DATABASE {database}");
        return new HistoryTestStore(kind, new NpgsqlConnectionStringBuilder(admin.ConnectionString) { Database = database }.ConnectionString, null, database);
    }

    /// <summary>Runs <paramref name="sql"/> on the store directly (a test's own setup or count), returning the first value.</summary>
    public object? Scalar(string sql)
    {
        using DbConnection connection = Connect();
        connection.Open();
        using DbCommand command = connection.CreateCommand();
        command.CommandText = sql;
        return command.ExecuteScalar();
    }

    /// <summary>The count <paramref name="sql"/> (a <c>SELECT COUNT(*)</c>) returns.</summary>
    public long Count(string sql) => Convert.ToInt64(Scalar(sql), System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The first row <paramref name="sql"/> reads from the SQLite file <paramref name="file"/>, as text.</summary>
    public static string?[] SqliteRow(string file, string sql)
    {
        using var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = file, Pooling = false }.ConnectionString);
        connection.Open();
        using SqliteCommand command = connection.CreateCommand();
        command.CommandText = sql;
        using SqliteDataReader reader = command.ExecuteReader();
        reader.Read().ShouldBeTrue(sql);
        return [.. Enumerable.Range(0, reader.FieldCount).Select(i => reader.IsDBNull(i) ? null : reader.GetString(i))];
    }

    /// <summary>Removes the file's folder or drops the database.</summary>
    public void Dispose()
    {
        _dir?.Dispose();
        if (_database is not null)
            Admin(new NpgsqlConnectionStringBuilder(Server()), $"DROP DATABASE IF EXISTS {_database} WITH (FORCE)");
    }

    private DbConnection Connect() => Kind == "sqlite"
        ? new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = Location, Pooling = false }.ConnectionString)
        : new NpgsqlConnection(new NpgsqlConnectionStringBuilder(Location) { Pooling = false }.ConnectionString);

    private static void Admin(NpgsqlConnectionStringBuilder server, string sql)
    {
        server.Pooling = false;
        using var connection = new NpgsqlConnection(server.ConnectionString);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }
}
