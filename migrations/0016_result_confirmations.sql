-- Issue 31: a person corrects any sport, as archery's arrows already could. Basketball's shots
-- (made or missed, 2PT or 3PT, an attempt added or dropped), bowling's shots (a false one dropped,
-- the result corrected) and tennis's swings (one dropped or added) get confirmed versions made with
-- POST /v1/jobs/{id}/corrections. Like archery_confirmations: the detected result and its typed rows
-- never change; each confirmation is a new version beside them, made from the detected result
-- alone, and the newest is current. CSV, stats and batch totals read the newest one where it exists.

-- One row per confirmation, with archery_confirmations' columns, checks and key (job_id, version):
-- `corrections` as read (op, index, the fields), `confirmed` the rows under the result's own key
-- (`shots`, `swings`), renumbered, each with `source` and `detectedIndex`, and the totals
-- recomputed from them (basketball's `stats`). LIKE copies no foreign key: it is added here.
CREATE TABLE result_confirmations (LIKE archery_confirmations INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES);
ALTER TABLE result_confirmations ADD FOREIGN KEY (job_id) REFERENCES jobs(id) ON DELETE CASCADE;
