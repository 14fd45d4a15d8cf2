SELECT machine_key, test, counter, commit_sha, note, time_utc
FROM acknowledgements
WHERE machine_key = @machine_key AND test = @test AND counter = @counter
ORDER BY time_utc, id
