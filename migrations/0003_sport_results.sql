-- Sport results as typed rows: bowling shots (seed 000's Shot) and tennis swings (seed 004), written
-- in the same transaction as the result document, by the run that wrote it. Column names are the
-- seeds' field names in snake_case (ReelworkCore.ResultTable keeps the list). No CHECKs on the
-- values: the rows are written by the statement that stores the result document, which must not
-- fail because a metric came out of range (the code validates; the insert is total).

CREATE TABLE bowling_shots (
    job_id               uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt              integer NOT NULL,
    shot_number          integer NOT NULL CHECK (shot_number >= 1),
    start_time           double precision,
    end_time             double precision,
    launch_speed         double precision,          -- mph
    impact_speed         double precision,          -- mph
    foul_line_board      double precision,
    arrow_board          double precision,
    breakpoint_board     double precision,
    breakpoint_distance  double precision,          -- feet
    pocket_board         double precision,
    pocket_offset        double precision,
    entry_angle          double precision,          -- degrees
    rev_rate             double precision,          -- rpm
    rev_category         text,                      -- stroker, tweener, cranker
    strike_probability   double precision,          -- 0-1
    result               text,
    confidence           double precision,
    flags                jsonb NOT NULL DEFAULT '[]'::jsonb,
    unavailable          jsonb NOT NULL DEFAULT '{}'::jsonb,  -- metric -> why it is null
    -- Compact: one array per point, [t, x, y, board, distanceFt, phase, interpolated].
    trajectory           jsonb NOT NULL DEFAULT '[]'::jsonb,
    PRIMARY KEY (job_id, attempt, shot_number)
);

CREATE TABLE tennis_swings (
    job_id                uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt               integer NOT NULL,
    swing_number          integer NOT NULL CHECK (swing_number >= 1),
    track_id              integer,
    type                  text,                    -- forehand, backhand, serve
    start_time            double precision,
    end_time              double precision,
    confidence            double precision,
    preparation_time      double precision,        -- keyFrameTimes, seconds from the video's start
    backswing_time        double precision,
    contact_time          double precision,
    follow_through_time   double precision,
    recovery_time         double precision,
    peak_wrist_speed      double precision,
    peak_wrist_speed_unit text,
    shoulder_turn         double precision,        -- degrees
    contact_height        double precision,        -- share of body height
    follow_through        double precision,        -- degrees of arc
    tracking_quality      double precision,
    unavailable           jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (job_id, attempt, swing_number)
);
