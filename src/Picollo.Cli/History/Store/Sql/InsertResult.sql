INSERT INTO results (
    run_id, test, counter, unit, kind, exact, operations_per_sample, samples,
    p0, p10, p25, p50, p90, p99, p100, mean, stddev, histogram)
VALUES (
    @run_id, @test, @counter, @unit, @kind, @exact, @operations_per_sample, @samples,
    @p0, @p10, @p25, @p50, @p90, @p99, @p100, @mean, @stddev, @histogram)
