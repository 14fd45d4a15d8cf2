using Picollo.Cli.History;
using Picollo.Cli.History.Store;
using Picollo.Counters;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// The results history's stores (issue 52) through <see cref="IHistoryStore"/>: the same assertions on the SQLite file and
/// on a real PostgreSQL database, from adding runs to reading their series, acknowledgements and retention.
/// </summary>
public sealed class HistoryStoreTests
{
    private static readonly string[] s_tests = ["Parser.Parse", "Tokenizer.Tokenize"];

    private static readonly DateTime s_start = new(2026, 3, 1, 12, 0, 0, 125, DateTimeKind.Utc);

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void AddedRuns_ReadBackAsSeries_InRunTimeOrder(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        using (IHistoryStore store = HistoryStores.Open(test.Location))
        {
            // Added out of time order: the series is ordered by run time, not by id.
            store.Add(Run("c2", "main", s_start.AddHours(2)), Results(p10: 320, bytes: 96)).ShouldBe(1);
            store.Add(Run("c1", "main", s_start), Results(p10: 300, bytes: 88)).ShouldBe(2);
            store.Add(Run("f1", "feature", s_start.AddHours(1)), Results(p10: 310, bytes: 88)).ShouldBe(3);
        }

        using IHistoryStore reopened = HistoryStores.Open(test.Location, create: false);
        reopened.SeriesKeys(null).ShouldBe(
        [
            new HistorySeriesKey("m1", "Parser.Parse", "allocated-bytes", "bytes", Exact: true),
            new HistorySeriesKey("m1", "Parser.Parse", "tsc", "ticks", Exact: false),
            new HistorySeriesKey("m1", "Tokenizer.Tokenize", "allocated-bytes", "bytes", Exact: true),
            new HistorySeriesKey("m1", "Tokenizer.Tokenize", "tsc", "ticks", Exact: false),
        ]);
        reopened.SeriesKeys("Tokenizer.*").Select(static k => k.Test).Distinct().ShouldBe(["Tokenizer.Tokenize"]);

        var tsc = new HistorySeriesKey("m1", "Parser.Parse", "tsc", "ticks", false);
        IReadOnlyList<HistoryPoint> all = reopened.Series(tsc, null);
        all.Select(static p => (p.RunId, p.Commit, p.Branch)).ShouldBe([(2L, "c1", "main"), (3L, "f1", "feature"), (1L, "c2", "main")]);
        all.Select(static p => p.Value).ShouldBe([300, 310, 320], "a time counter's value is its P10 per operation");
        all.Select(static p => p.P50).ShouldBe([350, 360, 370]);
        all[0].TimeUtc.ShouldBe(s_start);
        all[0].TimeUtc.Kind.ShouldBe(DateTimeKind.Utc);
        reopened.Series(tsc, "main").Select(static p => p.Commit).ShouldBe(["c1", "c2"]);

        IReadOnlyList<HistoryPoint> bytes = reopened.Series(new HistorySeriesKey("m1", "Parser.Parse", "allocated-bytes", "bytes", true), null);
        bytes.Select(static p => p.Value).ShouldBe([88, 88, 96], "an exact counter's value is its mean per operation");
        reopened.Series(tsc with { MachineKey = "m2" }, null).ShouldBeEmpty();
    }

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void Acknowledgements_ReadBackPerSeries_OldestFirst(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        using IHistoryStore store = HistoryStores.Open(test.Location);
        store.Add(Run("c1", "main", s_start), Results(300, 88));
        store.Acknowledge(new HistoryAcknowledgement("m1", "Parser.Parse", "tsc", "c9", "the new parser is slower by design", s_start.AddDays(2)));
        store.Acknowledge(new HistoryAcknowledgement("m1", "Parser.Parse", "tsc", "c5", "intended: bounds checks", s_start.AddDays(1)));
        store.Acknowledge(new HistoryAcknowledgement("m1", "Parser.Parse", "allocated-bytes", "c5", "a cache", s_start));

        store.Acknowledgements(new HistorySeriesKey("m1", "Parser.Parse", "tsc", "ticks", false)).ShouldBe(
        [
            new HistoryAcknowledgement("m1", "Parser.Parse", "tsc", "c5", "intended: bounds checks", s_start.AddDays(1)),
            new HistoryAcknowledgement("m1", "Parser.Parse", "tsc", "c9", "the new parser is slower by design", s_start.AddDays(2)),
        ]);
        store.Acknowledgements(new HistorySeriesKey("m2", "Parser.Parse", "tsc", "ticks", false)).ShouldBeEmpty();
    }

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void Prune_DropsOldHistograms_AndKeepsEverySummary(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        using IHistoryStore store = HistoryStores.Open(test.Location);
        DateTime now = DateTime.UtcNow;
        store.Add(Run("old", "main", now.AddDays(-40)), Results(300, 88));
        store.Add(Run("recent", "main", now.AddDays(-5)), Results(300, 88));

        store.Prune(TimeSpan.FromDays(30)).ShouldBe(4, "the old run's two tests × two counters");
        store.Prune(TimeSpan.FromDays(30)).ShouldBe(0, "pruned already");

        test.Count("SELECT COUNT(*) FROM results WHERE histogram IS NULL").ShouldBe(4);
        test.Count("SELECT COUNT(*) FROM results WHERE histogram IS NOT NULL").ShouldBe(4);
        store.Series(new HistorySeriesKey("m1", "Parser.Parse", "tsc", "ticks", false), null).Count.ShouldBe(2, "summaries stay");
    }

    [Theory]
    [MemberData(nameof(HistoryTestStore.Kinds), MemberType = typeof(HistoryTestStore))]
    public void OpeningTwice_CreatesTheSchemaOnce(string kind)
    {
        using HistoryTestStore test = HistoryTestStore.Create(kind);
        HistoryStores.Open(test.Location).Dispose();
        HistoryStores.Open(test.Location).Dispose();

        test.Count("SELECT COUNT(*) FROM picollo_metadata").ShouldBe(2, "the application marker and the schema version");
        test.Scalar("SELECT value FROM picollo_metadata WHERE key = 'schema_version'").ShouldBe(HistorySchema.Current.ToString(System.Globalization.CultureInfo.InvariantCulture));
        test.Scalar("SELECT value FROM picollo_metadata WHERE key = 'application'").ShouldBe(HistorySchema.Application);
    }

    [Theory]
    [InlineData("Host=db.example.org;Username=ci;Password=x;Database=perf", true)]
    [InlineData("server = db ; database = perf", true)]
    [InlineData("postgres://ci:x@db.example.org/perf", true)]
    [InlineData("postgresql://db/perf?sslmode=require", true)]
    [InlineData("picollo-history.db", false)]
    [InlineData("/cache/history=main.db", false)]
    [InlineData("C:\\ci\\history.db", false)]
    public void Location_IsPostgres_ForAConnectionStringOrUri(string location, bool postgres) =>
        HistoryStores.IsPostgres(location).ShouldBe(postgres);

    [Fact]
    public void Location_IsTheOption_ElseTheVariable_ElseTheDefaultFile()
    {
        HistoryStores.Locate("a.db", "b.db").ShouldBe("a.db");
        HistoryStores.Locate(null, "b.db").ShouldBe("b.db");
        HistoryStores.Locate(" ", null).ShouldBe(HistoryStores.DefaultFile);
    }

    [Fact]
    public void PostgresUri_ReadsAsTheKeywordSettings()
    {
        Npgsql.NpgsqlConnectionStringBuilder settings = PostgresHistoryStore.Settings("postgres://ci%40corp:p%3Ass@db.example.org:6543/perf?sslmode=require");

        (settings.Host, settings.Port, settings.Username, settings.Password, settings.Database).ShouldBe(("db.example.org", 6543, "ci@corp", "p:ss", "perf"));
        settings.SslMode.ShouldBe(Npgsql.SslMode.Require);
    }

    internal static HistoryRun Run(string commit, string branch, DateTime time) => new("m1", ".NET 10.0.0", commit, "p-" + commit, branch, time);

    // Two tests × tsc (P10 = p10, P50 = p10 + 50) and allocated-bytes (exactly `bytes` per operation).
    internal static IReadOnlyList<HistoryResult> Results(double p10, double bytes) =>
    [
        .. s_tests.SelectMany(test => new[]
        {
            new HistoryResult(test, "tsc", "ticks", CounterKind.Tsc, false, 1_000, 100, p10 - 5, p10, p10 + 20, p10 + 50, p10 + 80, p10 + 95, p10 + 99, p10 + 50, 29, "{\"h\":1}"),
            new HistoryResult(test, "allocated-bytes", "bytes", CounterKind.Runtime, true, 1_000, 100, bytes, bytes, bytes, bytes, bytes, bytes, bytes, bytes, 0, "{\"h\":2}"),
        }),
    ];
}
