using System.Net;
using System.Net.Sockets;
using Microsoft.Data.Sqlite;
using Picollo.Cli.History;
using Picollo.Cli.History.Store;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// A store that cannot be used (issue 52, "Bad input"): foreign, corrupt, newer, unreachable. Each is an error naming the
/// store, the reason and the fix, exit code 2 through the tool, and nothing written.
/// </summary>
public sealed class HistoryStoreErrorTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void NewerSchema_IsRefused_NothingWritten(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        HistoryStores.Open(test.Location).Dispose();
        test.Scalar("UPDATE picollo_metadata SET value = '7' WHERE key = 'schema_version'");
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 2);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "history", "add", folder, "--store", test.Location, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldContain($"was written by a newer picollo (schema 7, this tool knows {HistorySchema.Current}): update the tool");
        run.StandardOutput.ShouldBeEmpty();
        test.Count("SELECT COUNT(*) FROM runs").ShouldBe(0);
        Should.Throw<HistoryStoreException>(() => HistoryStores.Open(test.Location, create: false)).Message.ShouldContain("schema 7");
    }

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void ForeignStore_IsNotAPicolloHistoryStore_NothingWritten(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        test.Scalar("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "history", "add", folder, "--store", test.Location, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldContain("is not a Picollo history store: it holds a table customers and no picollo_metadata table.");
        run.StandardError.ShouldContain("PICOLLO_HISTORY");
        test.Count(kind == "sqlite"
            ? "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
            : "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()").ShouldBe(1, "only the foreign table");
    }

    [Fact]
    public void ForeignMarker_IsNotAPicolloHistoryStore()
    {
        string file = _dir.Combine("other.db");
        Sql(file, "CREATE TABLE picollo_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO picollo_metadata VALUES ('application', 'other-tool'), ('schema_version', '1');");

        Should.Throw<HistoryStoreException>(() => HistoryStores.Open(file)).Message
            .ShouldStartWith($"{file} is not a Picollo history store: its picollo_metadata table names the application 'other-tool'");
    }

    [Theory]
    [InlineData("text")]
    [InlineData("damaged header")]
    public void CorruptFile_IsNamedWithTheFix_AndLeftAsItWas(string damage)
    {
        string file = _dir.Combine("history.db");
        if (damage == "text")
        {
            File.WriteAllText(file, "this is a CI log, not a database\n");
        }
        else
        {
            HistoryStores.Open(file).Dispose();
            using FileStream stream = File.OpenWrite(file);
            stream.Write(new byte[100]);
        }

        byte[] before = File.ReadAllBytes(file);
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "history", "add", folder, "--store", file, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo history add: {file} is not a readable SQLite history file (SQLite Error 26: 'file is not a database'): ");
        run.StandardError.ShouldContain("Restore it from the CI cache or artifact it came from, or move it away");
        File.ReadAllBytes(file).ShouldBe(before);
    }

    [Fact]
    public void UnreachableServer_NamesHostAndPort_NeverThePassword()
    {
        int port = ClosedPort();
        string store = $"Host=127.0.0.1;Port={port};Username=ci;Password=hunter2-secret;Database=perf;Timeout=5";
        string folder = HistoryResultsFolder.Write(_dir.Combine("results"), 1);

        PicolloTool.Run run = PicolloTool.Invoke(_dir.Path, null, "history", "add", folder, "--store", store, "--commit", "abc");

        run.ExitCode.ShouldBe(2, run.Output);
        run.StandardError.ShouldStartWith($"picollo history add: Cannot reach the PostgreSQL server at 127.0.0.1:{port} (");
        run.StandardError.ShouldContain("start it, or check the host and port, or give --store <file or connection string> or set PICOLLO_HISTORY");
        run.Output.ShouldNotContain("hunter2");
    }

    [Fact]
    public void WrongPassword_NamesTheUser_NeverThePassword()
    {
        var server = new Npgsql.NpgsqlConnectionStringBuilder(HistoryTestStore.Server()) { Password = "not-the-password" };

        HistoryStoreException e = Should.Throw<HistoryStoreException>(() => HistoryStores.Open(server.ConnectionString));

        e.Message.ShouldContain($"refused the login of user '{server.Username}'");
        e.Message.ShouldNotContain("not-the-password");
    }

    [Fact]
    public void BadConnectionString_IsNotRepeated()
    {
        HistoryStoreException e = Should.Throw<HistoryStoreException>(() => HistoryStores.Open("Host=db;Password=s3cret;Frobnicate=1"));

        e.Message.ShouldStartWith("The PostgreSQL connection string does not parse (");
        e.Message.ShouldNotContain("s3cret");
    }

    [Fact]
    public void ReadingCommand_OnNoStore_SaysAddARunFirst_AndCreatesNothing()
    {
        string file = _dir.Combine("none.db");

        Should.Throw<HistoryStoreException>(() => HistoryStores.Open(file, create: false)).Message
            .ShouldStartWith($"No results history at {file}: no run was added there yet.");
        File.Exists(file).ShouldBeFalse();
    }

    private static void Sql(string file, string sql)
    {
        using var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = file, Pooling = false }.ConnectionString);
        connection.Open();
        using SqliteCommand command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    // A port nothing listens on: bound, then released.
    private static int ClosedPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
