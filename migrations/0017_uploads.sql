-- Uploads in parts (issue 30): a client declares a file's size and SHA-256, sends its parts (to
-- the bucket by presigned URLs, or to the coordinator with local storage) and completes it; the
-- video row is written only once the joined object's size and hash are checked. An upload not
-- completed by `expires_at` is abandoned and its parts dropped from the store.
CREATE TABLE uploads (
    id              uuid PRIMARY KEY,
    club            text NOT NULL,
    original_name   text,
    size_bytes      bigint NOT NULL CHECK (size_bytes > 0),
    content_hash    text NOT NULL,               -- the SHA-256 the client declared
    part_bytes      bigint NOT NULL CHECK (part_bytes > 0),
    staging_key     text NOT NULL,               -- where the parts are joined, before the content key
    store_upload_id text,                        -- the store's multipart upload id (S3); NULL for a folder
    status          text NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'completing', 'completed', 'rejected', 'aborted', 'expired')),
    video_id        uuid REFERENCES videos(id),
    error           text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL,
    finished_at     timestamptz
);

-- The sweep's question: which unfinished uploads are past their time.
CREATE INDEX uploads_unfinished ON uploads (expires_at) WHERE status IN ('open', 'completing');
-- And the quota's: how many a club has open.
CREATE INDEX uploads_club_unfinished ON uploads (club) WHERE status IN ('open', 'completing');
