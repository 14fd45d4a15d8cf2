-- Retention (issue 52): histograms of runs added before the cutoff are dropped; the summaries stay for the series.
UPDATE results SET histogram = NULL
WHERE histogram IS NOT NULL AND run_id IN (SELECT id FROM runs WHERE time_utc < @cutoff)
