-- Batches (issue 12): a club's many clips submitted as one unit, with counts, retry and cancel
-- for the whole. A job may belong to one batch; inside a batch the same video, sport and options
-- give the same job, so a resumed `submit` never creates a job twice.

CREATE TABLE batches (
    id              uuid PRIMARY KEY,
    club            text NOT NULL,
    sport           text NOT NULL,
    options         jsonb NOT NULL DEFAULT '{}'::jsonb,
    label           text CHECK (char_length(label) <= 200),
    dedupe_key      text,                          -- the client's Idempotency-Key
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX batches_club_dedupe ON batches (club, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX batches_club_created ON batches (club, created_at);

ALTER TABLE jobs ADD COLUMN batch_id uuid REFERENCES batches(id);
CREATE INDEX jobs_batch ON jobs (batch_id, created_at) WHERE batch_id IS NOT NULL;
