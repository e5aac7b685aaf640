-- Queue guarantees: priorities, error and stall counts kept apart, delayed retries, heartbeats,
-- cancel requests, idempotent submission, and a row per attempt for the history.

ALTER TABLE jobs
    ADD COLUMN priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('high', 'normal', 'low')),
    ADD COLUMN failures integer NOT NULL DEFAULT 0,        -- attempts that ended in an error
    ADD COLUMN stalls integer NOT NULL DEFAULT 0,          -- attempts whose lease expired (worker lost)
    ADD COLUMN next_attempt_at timestamptz,                -- when a retry_scheduled job is due
    ADD COLUMN heartbeat_at timestamptz,                   -- last heartbeat of the running attempt
    ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false,
    ADD COLUMN dedupe_key text;                            -- Idempotency-Key, or a hash of what the job computes

ALTER TABLE jobs DROP CONSTRAINT jobs_last_error_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_last_error_kind_check
    CHECK (last_error_kind IN ('transient', 'invalid_input', 'needs_person', 'internal', 'stalled'));

CREATE UNIQUE INDEX jobs_club_dedupe ON jobs (club, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX jobs_status_updated ON jobs (status, updated_at);

CREATE TABLE job_attempts (
    job_id      uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    worker_id   text NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    outcome     text CHECK (outcome IN ('succeeded', 'failed', 'retry', 'stalled', 'handed_back', 'cancelled', 'lost')),
    error       text,
    error_kind  text,
    PRIMARY KEY (job_id, attempt)
);
