-- The dashboard's text search chooses between reading the newest jobs in order and asking the
-- trigram indexes from the planner's estimate of how common the text is (DashboardRepository.
-- textMatch). That estimate tests the text against the column's statistics sample: the default
-- target (100) holds a text in 1 name in 40 with no sample value about one time in twelve, which
-- reads as rare and sends a common text to the indexes. A target of 1,000 makes that chance nil and
-- tells 1 in 100 from 1 in 1,000. ANALYZE then samples 300,000 rows of these tables instead of
-- 30,000; it runs in the background (autovacuum).
ALTER TABLE videos ALTER COLUMN original_name SET STATISTICS 1000;
ALTER TABLE jobs ALTER COLUMN last_error SET STATISTICS 1000;
