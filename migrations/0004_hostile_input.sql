-- Facts are facts, and retries can be checked: a video's frame count says where it came from
-- (the container's count, an estimate from duration × fps, or the decoder's own count), and each
-- attempt that ended in a scheduled retry keeps the time that retry was due.

ALTER TABLE videos
    ADD COLUMN frame_count_source text NOT NULL DEFAULT 'container'
        CHECK (frame_count_source IN ('container', 'estimate', 'decoded'));

ALTER TABLE job_attempts
    ADD COLUMN retry_at timestamptz;   -- outcome 'retry': when the next attempt became due
