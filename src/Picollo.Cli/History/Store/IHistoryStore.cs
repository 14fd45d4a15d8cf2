namespace Picollo.Cli.History.Store;

/// <summary>
/// The results history: runs appended one transaction each, read back as series per machine key, test and
/// counter. An SQLite file or a PostgreSQL server behind the same schema, created and migrated when opened
/// (<see cref="HistoryStores.Open"/>); several processes may append at once and lose nothing.
/// </summary>
internal interface IHistoryStore : IDisposable
{
    /// <summary>
    /// The store as messages name it: the SQLite file's full path, or the PostgreSQL database, host and port (never a password).
    /// </summary>
    string Name { get; }

    /// <summary>Appends one run and its results in one transaction: all of it is stored, or nothing.</summary>
    /// <returns>The run's id.</returns>
    /// <exception cref="HistoryStoreException">The store could not be written; nothing was.</exception>
    long Add(HistoryRun run, IReadOnlyList<HistoryResult> results);

    /// <summary>
    /// Every series the store holds, in machine key, test and counter order; only the tests <paramref name="testFilter"/>
    /// names when given.
    /// </summary>
    /// <param name="testFilter">A test name or pattern as <c>picollo accept --test</c> reads it, or <see langword="null"/> for all.</param>
    IReadOnlyList<HistorySeriesKey> SeriesKeys(string? testFilter);

    /// <summary>One series' points in run-time order; only the runs of <paramref name="branch"/> when given.</summary>
    IReadOnlyList<HistoryPoint> Series(HistorySeriesKey key, string? branch);

    /// <summary>Marks a change point intended.</summary>
    void Acknowledge(HistoryAcknowledgement acknowledgement);

    /// <summary>The acknowledged change points of one series, oldest first.</summary>
    IReadOnlyList<HistoryAcknowledgement> Acknowledgements(HistorySeriesKey key);

    /// <summary>Drops the histograms of runs added longer than <paramref name="keepHistograms"/> ago; their summaries stay.</summary>
    /// <returns>How many results lost their histogram.</returns>
    int Prune(TimeSpan keepHistograms);
}
