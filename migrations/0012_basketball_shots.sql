-- Basketball shots (seed 001, issue 14): one row per attempt of a shooting session, written in the
-- same transaction as the result document by the run that wrote it (ReelworkCore.ResultTable
-- .basketballShots keeps the column list). Like 0003's tables: no CHECKs on the values, the insert
-- that stores the result must be total. The trajectory stays in the result document.

CREATE TABLE basketball_shots (
    job_id        uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt       integer NOT NULL,
    shot_number   integer NOT NULL CHECK (shot_number >= 1),
    release_time  double precision,            -- seconds from the video's start
    rim_time      double precision,            -- when the ball came down to the rim's height
    made          boolean,
    shot_type     text,                        -- 2PT, 3PT
    distance_ft   double precision,            -- release point to the rim's centre, horizontal
    confidence    double precision,            -- 0-1
    unavailable   jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (job_id, attempt, shot_number)
);
