-- Webhooks (issue 12, guarantee 9): a club's endpoints, and an outbox of deliveries written in the
-- same transaction as the state change they announce, so a crash can neither lose a notification
-- nor send one for a change that was rolled back. The coordinator's dispatcher sends what is due
-- and keeps one row per attempt, which is what `GET /v1/webhooks/{id}/deliveries` shows.

CREATE TABLE webhook_endpoints (
    id              uuid PRIMARY KEY,
    -- A club's name, as jobs, videos and batches hold it (the API keys' rule for names).
    club            text NOT NULL CHECK (club ~ '^[A-Za-z0-9._-]{1,64}$'),
    -- Checked fully (scheme, no credentials, where it resolves) by the application; these are the
    -- rules no row may ever break.
    url             text NOT NULL CHECK (url ~ '^https?://' AND length(url) <= 2048),
    events          text[] NOT NULL
                        CHECK (cardinality(events) >= 1
                               AND events <@ ARRAY['job.succeeded', 'job.failed', 'job.cancelled', 'batch.completed']),
    -- Kept readable, unlike an API key's hash: signing needs the key itself. `whsec_` + base64.
    secret          text NOT NULL CHECK (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
    -- After a rotation the old secret signs too, until it expires, so a receiver can switch over
    -- without refusing deliveries signed with the one it still has.
    previous_secret text CHECK (previous_secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
    previous_secret_expires_at timestamptz,
    disabled_at     timestamptz,
    disabled_reason text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT webhook_endpoints_previous_secret_expires CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL)),
    CONSTRAINT webhook_endpoints_disabled_with_reason CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL))
);
-- Terminal job writes look up the club's enabled endpoints: one index probe per club.
CREATE INDEX webhook_endpoints_club ON webhook_endpoints (club) WHERE disabled_at IS NULL;

-- One notification of one event to one endpoint. Its id is the Standard Webhooks `webhook-id`:
-- the same for every attempt, so a receiver can drop a repeat.
CREATE TABLE webhook_deliveries (
    id              text PRIMARY KEY CHECK (id ~ '^msg_[A-Za-z0-9]{16,64}$'),
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_type      text NOT NULL CHECK (event_type IN ('job.succeeded', 'job.failed', 'job.cancelled', 'batch.completed')),
    data            jsonb NOT NULL,                -- the event's `data`; the envelope is made when sent
    -- pending: waiting for its next attempt (or in flight); succeeded: a 2xx came back;
    -- failed: not sent again because the endpoint answered 410 or was disabled;
    -- abandoned: the retry schedule ran out.
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'abandoned')),
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    -- Attempts made since the schedule last started (a redelivery starts it again): picks the
    -- next step of the retry schedule.
    schedule_position integer NOT NULL DEFAULT 0 CHECK (schedule_position >= 0),
    -- When the next attempt is due (the first: at once). A dispatcher that claims the delivery moves
    -- it forward by its lease, so a coordinator that dies mid-send leaves it due again once the
    -- lease ends. NULL once the delivery is finished.
    next_attempt_at timestamptz DEFAULT now(),
    -- Set by the claim and required by the write of its outcome: a dispatcher whose lease ended
    -- and whose delivery was claimed again cannot record over the new attempt.
    lease_token     uuid,
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    CONSTRAINT webhook_deliveries_due_iff_pending CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
    CONSTRAINT webhook_deliveries_finished_iff_done CHECK ((status = 'pending') = (finished_at IS NULL))
);
-- "What is due now", read by every dispatcher round: only pending rows are in it.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
-- An endpoint's deliveries, newest first (the deliveries list).
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
    delivery_id     text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempt         integer NOT NULL CHECK (attempt >= 1),
    status_code     integer CHECK (status_code BETWEEN 100 AND 599),   -- NULL: no HTTP answer
    latency_ms      integer NOT NULL CHECK (latency_ms >= 0),
    error           text,                          -- NULL for a 2xx
    attempted_at    timestamptz NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);

-- `batch.completed`: announced once each time all of a batch's jobs have ended, by a sweep
-- (Store/BatchCompletion.swift explains the locking). `completed_at` is set by the sweep and
-- cleared by any write that opens one of its jobs again (a retry, more jobs), so a batch that is
-- retried and completes again is announced again; `completions` counts the announcements.
ALTER TABLE batches ADD COLUMN completed_at timestamptz;
ALTER TABLE batches ADD COLUMN completions integer NOT NULL DEFAULT 0 CHECK (completions >= 0);
-- Batches that were already complete before webhooks existed count as announced, so the first
-- sweep after this migration does not announce an old batch.
UPDATE batches b SET completed_at = coalesce((SELECT max(finished_at) FROM jobs WHERE batch_id = b.id), now()), completions = 1
WHERE EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id)
  AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id AND status IN ('queued', 'running', 'retry_scheduled'));

-- The sweep reads the batches not announced yet, and asks each whether it has an open job: one
-- probe of each index, however many batches and jobs are finished.
CREATE INDEX batches_unannounced ON batches (id) WHERE completed_at IS NULL;
CREATE INDEX jobs_batch_open ON jobs (batch_id) WHERE status IN ('queued', 'running', 'retry_scheduled');
