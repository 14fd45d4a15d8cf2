-- The results history's schema, version 1 (issue 52): one schema for the SQLite file and the PostgreSQL server. The
-- placeholders in braces are the column types the two dialects spell differently (HistoryDialect.ColumnTypes).

-- What the store is and which schema it holds: a file or database without these rows is not a Picollo history store,
-- and a schema_version above the tool's is refused (written by a newer picollo).
CREATE TABLE picollo_metadata (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row per `picollo history add`.
CREATE TABLE runs (
    id {identity},
    machine_key TEXT NOT NULL,
    runtime TEXT NOT NULL,
    commit_sha TEXT,
    parent_sha TEXT,
    branch TEXT,
    time_utc {timestamp} NOT NULL
);

CREATE INDEX runs_machine_time ON runs (machine_key, time_utc);

-- One row per test and counter of a run: the per-operation summary, kept for good, and the histogram of per-sample
-- totals (the result file's compressed histogram), dropped after the retention period (picollo history prune).
CREATE TABLE results (
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    test TEXT NOT NULL,
    counter TEXT NOT NULL,
    unit TEXT NOT NULL,
    kind TEXT NOT NULL,
    exact {boolean} NOT NULL,
    operations_per_sample BIGINT NOT NULL,
    samples INTEGER NOT NULL,
    p0 {double} NOT NULL,
    p10 {double} NOT NULL,
    p25 {double} NOT NULL,
    p50 {double} NOT NULL,
    p90 {double} NOT NULL,
    p99 {double} NOT NULL,
    p100 {double} NOT NULL,
    mean {double} NOT NULL,
    stddev {double} NOT NULL,
    histogram TEXT,
    PRIMARY KEY (run_id, test, counter)
);

-- Covers the series query (Series.sql): a series is read from the index alone, never from the rows, whose histograms make
-- them large. On 1,000 runs of 100 tests (1,000 series, a 1.1 GB SQLite file) picollo history check took 12.2 s with an
-- index on (test, counter) and 5.9 s with this one (bench/RESULTS.md, "Results history").
CREATE INDEX results_series ON results (test, counter, unit, exact, run_id, kind, p10, p50, mean);

-- Change points marked intended, per series, by the commit of the change point's first run.
CREATE TABLE acknowledgements (
    id {identity},
    machine_key TEXT NOT NULL,
    test TEXT NOT NULL,
    counter TEXT NOT NULL,
    commit_sha TEXT NOT NULL,
    note TEXT NOT NULL,
    time_utc {timestamp} NOT NULL
);

CREATE INDEX acknowledgements_series ON acknowledgements (machine_key, test, counter);
