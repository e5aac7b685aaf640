-- The dashboard (issue 13): sign-in sessions, and indexes for its pages over a million jobs.

-- A session is an API key exchanged for a cookie. Only the cookie's SHA-256 is kept, like a key's
-- secret; the session lives no longer than its key (a revoked key's sessions stop working at once,
-- because every lookup joins the key and asks that it is not revoked).
CREATE TABLE dashboard_sessions (
    token_hash      bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    key_id          uuid NOT NULL REFERENCES api_keys(id),
    csrf_token      text NOT NULL,                 -- sent back in every form; compared with this
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);

-- The jobs page lists newest first whatever the filter; the overview's chart counts the last hour's
-- ends.
CREATE INDEX jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;
-- The failed page groups what failed by club, kind and message, and the overview counts failures
-- per club, both from this index alone (no row is read but one per group, for its message). The
-- message is indexed as its MD5, not its text: an index entry has a size limit a long message
-- could pass, which would fail the job's end. The MD5 is a stored column because PostgreSQL
-- answers from an index alone only when every column the query names is in it (an index on the
-- expression md5(last_error) would not do).
ALTER TABLE jobs ADD COLUMN last_error_md5 text GENERATED ALWAYS AS (md5(last_error)) STORED;
CREATE INDEX jobs_failed ON jobs (club, last_error_kind, last_error_md5) INCLUDE (finished_at) WHERE status = 'failed';

-- The jobs page's text search (`q`, a substring of the file name or of the error, any case) finds
-- a rare text through trigram indexes instead of reading every job; pg_trgm is in PostgreSQL's
-- contrib (Debian's postgresql package) and is a trusted extension, so the database's owner may
-- create it. Only jobs with an error are in the error's index, and the file name's jobs are
-- found through their video.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX videos_name_trgm ON videos USING gin (original_name gin_trgm_ops);
CREATE INDEX jobs_error_trgm ON jobs USING gin (last_error gin_trgm_ops) WHERE last_error IS NOT NULL;
CREATE INDEX jobs_video ON jobs (video_id);

-- The batches page lists every club's batches newest first (a club's own: batches_club_created).
CREATE INDEX batches_created ON batches (created_at DESC, id DESC);
