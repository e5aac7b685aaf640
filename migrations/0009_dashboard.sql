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
-- ends; the failed page groups what failed by kind and message.
CREATE INDEX jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;
-- (Not the error text: an index entry has a size limit a long message could pass, failing the job's end.)
CREATE INDEX jobs_failed ON jobs (club, last_error_kind) WHERE status = 'failed';
