-- One series in run-time order (the run id breaks ties of runs added in the same instant); a null branch: every branch.
SELECT r.id, r.commit_sha, r.branch, r.time_utc, s.kind, s.p10, s.p50, s.mean
FROM results s
JOIN runs r ON r.id = s.run_id
WHERE r.machine_key = @machine_key AND s.test = @test AND s.counter = @counter AND s.unit = @unit AND s.exact = @exact
    AND (@branch IS NULL OR r.branch = @branch)
ORDER BY r.time_utc, r.id
