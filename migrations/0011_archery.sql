-- Archery (seed 002): the detected end's arrows as typed rows, written with the result document
-- like bowling_shots and tennis_swings (ReelworkCore.ResultTable.archeryArrows keeps the list), and
-- the confirmed versions a person makes with POST /v1/jobs/{id}/arrows (move, add, delete). The
-- detected end is never changed: each confirmation is a new version beside it, rescored.

CREATE TABLE archery_arrows (
    job_id                uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt               integer NOT NULL,
    arrow_number          integer NOT NULL CHECK (arrow_number >= 1),  -- clockwise from 12 o'clock
    score                 integer,                 -- 0 (a miss) to 10
    is_x_ring             boolean,
    normalized_x          double precision,        -- face radii, centre 0, x right
    normalized_y          double precision,        -- face radii, y up
    distance_from_center  double precision,        -- face radii
    clock_position_deg    double precision,        -- 0 = 12 o'clock, clockwise
    confidence            double precision,
    pixel_x               double precision,
    pixel_y               double precision,
    arrival_time          double precision,        -- seconds; a video's only
    unavailable           jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (job_id, attempt, arrow_number)
);

-- One row per confirmation: `corrections` as sent, `confirmed` the rescored end (ConfirmedEnd's
-- document: arrows[], total, xCount, tens). Versions count from 1 per job; the newest is current.
CREATE TABLE archery_confirmations (
    job_id       uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    version      integer NOT NULL CHECK (version >= 1),
    corrections  jsonb NOT NULL,
    confirmed    jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, version)
);
