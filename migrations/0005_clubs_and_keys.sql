-- Clubs and API keys (issue 12, guarantee 7): a key is a random secret shown once; only its
-- SHA-256 is kept, so a copy of this table cannot be used to call the API. A club key belongs to
-- exactly one club; operator and worker keys belong to none. Keys are revoked, never deleted,
-- so `keys list` can still say who held one and when it stopped working.

CREATE TABLE clubs (
    id              uuid PRIMARY KEY,
    name            text NOT NULL UNIQUE
                        CHECK (name ~ '^[A-Za-z0-9._-]{1,64}$'),   -- the CLI's rule, kept here too
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    id              uuid PRIMARY KEY,
    prefix          text NOT NULL,                 -- the key's first characters, for lists (never enough to use)
    secret_hash     bytea NOT NULL CHECK (octet_length(secret_hash) = 32),   -- SHA-256 of the whole key text
    role            text NOT NULL CHECK (role IN ('club', 'operator', 'worker')),
    club_id         uuid REFERENCES clubs(id),
    label           text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    revoked_at      timestamptz,
    last_used_at    timestamptz,                   -- refreshed at most once a minute per key
    -- A club key without a club would see nothing (or, with a bug, everything); an operator key
    -- with a club would be ambiguous. Neither can exist.
    CONSTRAINT api_keys_club_iff_club_role CHECK ((role = 'club') = (club_id IS NOT NULL))
);
-- Presented keys are found by their hash: one index probe, no comparison of secrets in code.
CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys (secret_hash);
CREATE INDEX api_keys_club ON api_keys (club_id) WHERE club_id IS NOT NULL;
