INSERT INTO acknowledgements (machine_key, test, counter, commit_sha, note, time_utc)
VALUES (@machine_key, @test, @counter, @commit_sha, @note, @time_utc)
