INSERT INTO runs (machine_key, runtime, commit_sha, parent_sha, branch, time_utc)
VALUES (@machine_key, @runtime, @commit_sha, @parent_sha, @branch, @time_utc)
RETURNING id
