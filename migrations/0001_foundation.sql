-- Reelwork foundation schema: videos, jobs, per-attempt stages, results.
-- PostgreSQL is the source of truth; Redis only holds queue state that can be rebuilt from here.

CREATE TABLE videos (
    id              uuid PRIMARY KEY,
    content_hash    text NOT NULL UNIQUE,          -- sha256 hex of the uploaded bytes
    size_bytes      bigint NOT NULL CHECK (size_bytes > 0),
    storage_key     text NOT NULL,                 -- path relative to the storage directory
    original_name   text,
    container       text NOT NULL,                 -- libavformat's format name
    codec           text NOT NULL,
    width           integer NOT NULL,
    height          integer NOT NULL,
    fps             double precision NOT NULL,
    duration_seconds double precision NOT NULL,
    frame_count     integer NOT NULL,
    rotation        integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jobs (
    id              uuid PRIMARY KEY,
    video_id        uuid NOT NULL REFERENCES videos(id),
    club            text NOT NULL,
    sport           text NOT NULL,
    options         jsonb NOT NULL DEFAULT '{}'::jsonb,
    status          text NOT NULL CHECK (status IN ('queued','running','retry_scheduled','succeeded','failed','cancelled')),
    attempt         integer NOT NULL DEFAULT 0,    -- number of the current (or last) run; fences writes
    max_attempts    integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
    worker_id       text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    last_error      text,
    last_error_kind text CHECK (last_error_kind IN ('transient','invalid_input','needs_person','internal'))
);
CREATE INDEX jobs_status_created ON jobs (status, created_at);
CREATE INDEX jobs_club_created ON jobs (club, created_at);
CREATE INDEX jobs_sport_created ON jobs (sport, created_at);

CREATE TABLE job_stages (
    job_id          uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt         integer NOT NULL,
    name            text NOT NULL,
    position        integer NOT NULL,              -- order within the run
    status          text NOT NULL CHECK (status IN ('pending','running','succeeded','skipped','failed')),
    progress        double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
    frames_done     integer,
    frames_planned  integer,
    started_at      timestamptz,
    finished_at     timestamptz,
    error           text,
    error_kind      text,
    PRIMARY KEY (job_id, attempt, name)
);

CREATE TABLE results (
    job_id          uuid PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    attempt         integer NOT NULL,              -- the run that wrote it
    sport           text NOT NULL,
    video           jsonb NOT NULL,                -- probed facts
    warnings        jsonb NOT NULL DEFAULT '[]'::jsonb,
    result          jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now()
);
