using System.Data;
using System.Data.Common;
using Picollo.Counters;

namespace Picollo.Cli.History.Store;

/// <summary>
/// What the SQLite and PostgreSQL stores share: every statement but the schema's column types is the same text
/// (<see cref="HistorySql"/>), read and written through ADO.NET. A dialect supplies its connection, its column types,
/// how it lists tables, how it serializes schema changes and how its errors read.
/// </summary>
internal abstract class HistoryDatabase : IHistoryStore
{
    /// <summary>Takes an unopened connection to the store <paramref name="name"/> names.</summary>
    protected HistoryDatabase(DbConnection connection, string name)
    {
        Connection = connection;
        Name = name;
    }

    /// <inheritdoc/>
    public string Name { get; }

    /// <summary>The connection, open once <see cref="Start"/> returned.</summary>
    internal DbConnection Connection { get; }

    /// <summary>The dialect's spelling of the schema's column types, by the placeholder in <c>Schema*.sql</c>.</summary>
    internal abstract IReadOnlyDictionary<string, string> ColumnTypes { get; }

    /// <summary>A query of one text column: the tables of the store's file or schema, Picollo's or not.</summary>
    internal abstract string TablesQuery { get; }

    /// <summary>
    /// Serializes creating or migrating the schema among processes, inside <paramref name="transaction"/>: several CI jobs
    /// may open a new store at once.
    /// </summary>
    internal abstract void LockSchema(DbTransaction transaction);

    /// <summary>A transaction that writes: one per run, so two processes appending at once lose nothing.</summary>
    internal virtual DbTransaction BeginWrite() => Connection.BeginTransaction(IsolationLevel.ReadCommitted);

    /// <inheritdoc/>
    public long Add(HistoryRun run, IReadOnlyList<HistoryResult> results)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(results);
        return Guard(() =>
        {
            using DbTransaction transaction = BeginWrite();
            long id;
            using (DbCommand insertRun = HistorySql.Command(Connection, transaction, HistorySql.Text("InsertRun")))
            {
                HistorySql.Bind(insertRun, "machine_key", run.MachineKey);
                HistorySql.Bind(insertRun, "runtime", run.Runtime);
                HistorySql.Bind(insertRun, "commit_sha", run.Commit);
                HistorySql.Bind(insertRun, "parent_sha", run.Parent);
                HistorySql.Bind(insertRun, "branch", run.Branch);
                HistorySql.Bind(insertRun, "time_utc", DateTime.SpecifyKind(run.TimeUtc.ToUniversalTime(), DateTimeKind.Utc));
                id = Convert.ToInt64(insertRun.ExecuteScalar(), System.Globalization.CultureInfo.InvariantCulture);
            }

            InsertResults(transaction, id, results);
            transaction.Commit();
            return id;
        });
    }

    /// <inheritdoc/>
    public IReadOnlyList<HistorySeriesKey> SeriesKeys(string? testFilter)
    {
        TestNameFilter? filter = string.IsNullOrWhiteSpace(testFilter) ? null : new TestNameFilter(testFilter);
        return Guard(() =>
        {
            var keys = new List<HistorySeriesKey>();
            using DbCommand command = HistorySql.Command(Connection, null, HistorySql.Text("SeriesKeys"));
            using DbDataReader reader = command.ExecuteReader();
            while (reader.Read())
            {
                var key = new HistorySeriesKey(
                    reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetBoolean(4));
                if (filter is null || filter.Matches(key.Test))
                    keys.Add(key);
            }

            return keys;
        });
    }

    /// <inheritdoc/>
    public IReadOnlyList<HistoryPoint> Series(HistorySeriesKey key, string? branch)
    {
        ArgumentNullException.ThrowIfNull(key);
        return Guard(() =>
        {
            var points = new List<HistoryPoint>();
            using DbCommand command = HistorySql.Command(Connection, null, HistorySql.Text("Series"));
            BindKey(command, key.MachineKey, key.Test, key.Counter);
            HistorySql.Bind(command, "unit", key.Unit);
            HistorySql.Bind(command, "exact", key.Exact);
            HistorySql.Bind(command, "branch", branch);
            using DbDataReader reader = command.ExecuteReader();
            while (reader.Read())
            {
                double p10 = reader.GetDouble(5), p50 = reader.GetDouble(6), mean = reader.GetDouble(7);

                // A kind a newer tool wrote and this one does not know is judged as an unknown counter is: by its mean.
                double value = Enum.TryParse(reader.GetString(4), out CounterKind kind)
                    ? HistoryResult.SeriesValue(key.Counter, kind, p10, mean)
                    : mean;
                points.Add(new HistoryPoint(
                    reader.GetInt64(0), HistorySql.NullableString(reader, 1), HistorySql.NullableString(reader, 2),
                    HistorySql.Utc(reader, 3), value, p50, mean));
            }

            return points;
        });
    }

    /// <inheritdoc/>
    public void Acknowledge(HistoryAcknowledgement acknowledgement)
    {
        ArgumentNullException.ThrowIfNull(acknowledgement);
        Guard(() =>
        {
            using DbTransaction transaction = BeginWrite();
            using DbCommand command = HistorySql.Command(Connection, transaction, HistorySql.Text("InsertAcknowledgement"));
            BindKey(command, acknowledgement.MachineKey, acknowledgement.Test, acknowledgement.Counter);
            HistorySql.Bind(command, "commit_sha", acknowledgement.Commit);
            HistorySql.Bind(command, "note", acknowledgement.Note);
            HistorySql.Bind(command, "time_utc", DateTime.SpecifyKind(acknowledgement.TimeUtc.ToUniversalTime(), DateTimeKind.Utc));
            command.ExecuteNonQuery();
            transaction.Commit();
            return 0;
        });
    }

    /// <inheritdoc/>
    public IReadOnlyList<HistoryAcknowledgement> Acknowledgements(HistorySeriesKey key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return Guard(() =>
        {
            var acknowledgements = new List<HistoryAcknowledgement>();
            using DbCommand command = HistorySql.Command(Connection, null, HistorySql.Text("Acknowledgements"));
            BindKey(command, key.MachineKey, key.Test, key.Counter);
            using DbDataReader reader = command.ExecuteReader();
            while (reader.Read())
            {
                acknowledgements.Add(new HistoryAcknowledgement(
                    reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetString(4),
                    HistorySql.Utc(reader, 5)));
            }

            return acknowledgements;
        });
    }

    /// <inheritdoc/>
    public int Prune(TimeSpan keepHistograms)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(keepHistograms, TimeSpan.Zero);
        DateTime cutoff = DateTime.UtcNow - keepHistograms;
        return Guard(() =>
        {
            using DbTransaction transaction = BeginWrite();
            using DbCommand command = HistorySql.Command(Connection, transaction, HistorySql.Text("Prune"));
            HistorySql.Bind(command, "cutoff", cutoff);
            int pruned = command.ExecuteNonQuery();
            transaction.Commit();
            return pruned;
        });
    }

    /// <summary>Closes the connection.</summary>
    public void Dispose()
    {
        Connection.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// Opens the connection and brings the schema to this tool's version (<see cref="HistorySchema"/>); on any failure the
    /// connection is closed and the error says what to do.
    /// </summary>
    internal void Start(bool create)
    {
        try
        {
            Guard(() =>
            {
                Connection.Open();
                Prepare();
                HistorySchema.Ensure(this, create);
                return 0;
            });
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>The connection's settings a dialect applies once it is open, before the schema is read.</summary>
    internal virtual void Prepare()
    {
    }

    /// <summary>The driver's error as a <see cref="HistoryStoreException"/> naming this store, the reason and the fix.</summary>
    internal abstract HistoryStoreException Translate(DbException exception);

    /// <summary>Runs <paramref name="work"/>, turning the driver's errors into messages a user can act on.</summary>
    internal T Guard<T>(Func<T> work)
    {
        try
        {
            return work();
        }
        catch (DbException e)
        {
            throw Translate(e);
        }
    }

    private static void BindKey(DbCommand command, string machineKey, string test, string counter)
    {
        HistorySql.Bind(command, "machine_key", machineKey);
        HistorySql.Bind(command, "test", test);
        HistorySql.Bind(command, "counter", counter);
    }

    // PostgreSQL's driver sends a batch in one round trip, where one insert per result cost a round trip each (0.09 s for a
    // run of 100 tests on a local server, bench/RESULTS.md). SQLite runs in-process and its driver has no batches: one
    // insert, bound again row by row.
    private void InsertResults(DbTransaction transaction, long runId, IReadOnlyList<HistoryResult> results)
    {
        string text = HistorySql.Text("InsertResult");
        if (Connection.CanCreateBatch)
        {
            using DbBatch batch = Connection.CreateBatch();
            batch.Transaction = transaction;
            foreach (HistoryResult result in results)
            {
                DbBatchCommand command = batch.CreateBatchCommand();
                command.CommandText = text;
                BindResult((name, value) => HistorySql.Bind(command, name, value), runId, result);
                batch.BatchCommands.Add(command);
            }

            if (batch.BatchCommands.Count > 0)
                batch.ExecuteNonQuery();
            return;
        }

        using DbCommand insert = HistorySql.Command(Connection, transaction, text);
        foreach (HistoryResult result in results)
        {
            BindResult((name, value) => HistorySql.Bind(insert, name, value), runId, result);
            insert.ExecuteNonQuery();
        }
    }

    private static void BindResult(Action<string, object?> bind, long runId, HistoryResult result)
    {
        bind("run_id", runId);
        bind("test", result.Test);
        bind("counter", result.Counter);
        bind("unit", result.Unit);
        bind("kind", result.Kind.ToString());
        bind("exact", result.Exact);
        bind("operations_per_sample", result.OperationsPerSample);
        bind("samples", result.Samples);
        bind("p0", result.P0);
        bind("p10", result.P10);
        bind("p25", result.P25);
        bind("p50", result.P50);
        bind("p90", result.P90);
        bind("p99", result.P99);
        bind("p100", result.P100);
        bind("mean", result.Mean);
        bind("stddev", result.StdDev);
        bind("histogram", result.Histogram);
    }
}
