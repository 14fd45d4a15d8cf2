SELECT DISTINCT r.machine_key, s.test, s.counter, s.unit, s.exact
FROM results s
JOIN runs r ON r.id = s.run_id
ORDER BY r.machine_key, s.test, s.counter, s.unit, s.exact
