-- Seeds a migrated Reelwork database with :jobs jobs (psql -v jobs=1000000) for the dashboard
-- benchmark, in a handful of INSERT … SELECT generate_series statements. Everything is a function
-- of the row number through hashint4extended, so two seeds of the same size are the same data.
--
-- The shape, meant to look like a service some months old:
--   * jobs arrive in submissions of 250 consecutive rows (a batch, or for one in five a run of
--     single uploads), created evenly over the last 30 days, so about 1/720 of them in the last hour;
--   * eight clubs of very different sizes (40 % down to 0.5 %), each with its own sport mix;
--   * one video per job, with a camera- or app-style file name;
--   * most jobs succeeded, about 3.5 % failed with one of 36 error kinds and messages (a few
--     common, many rare), about 2 % cancelled; the newest are queued, running or waiting to retry;
--   * one attempt per started job, four stages per attempt (probe, decode, pose, persist), and
--     result documents for the last two days' successes.

\set ON_ERROR_STOP on
SET synchronous_commit = off;
SET maintenance_work_mem = '256MB';
BEGIN;

CREATE TEMP TABLE seed_clubs (n int PRIMARY KEY, name text, lo int, hi int, sports text[]);
-- lo/hi: the club's share of submissions, in thousandths.
INSERT INTO seed_clubs VALUES
    (0, 'riverside-tennis', 0,   400, '{tennis}'),
    (1, 'northbowl',        400, 650, '{bowling}'),
    (2, 'eastside-archery', 650, 800, '{archery}'),
    (3, 'metro-hoops',      800, 900, '{basketball}'),
    (4, 'lakeside-academy', 900, 950, '{tennis,basketball,archery,bowling}'),
    (5, 'pinecrest',        950, 980, '{tennis,bowling}'),
    (6, 'harbor-lanes',     980, 995, '{bowling}'),
    (7, 'tiny-club',        995, 1000, '{archery,tennis}');

INSERT INTO clubs (id, name, created_at)
SELECT md5('club' || n)::uuid, name, now() - interval '90 days' FROM seed_clubs;

CREATE TEMP TABLE seed_errors (n int PRIMARY KEY, kind text, message text);
INSERT INTO seed_errors
SELECT row_number() OVER () - 1, kind, message FROM (VALUES
    ('invalid_input', 'probe: no video stream in the file'),
    ('invalid_input', 'probe: Invalid data found when processing input'),
    ('invalid_input', 'decode: the container says 0 frames and none could be decoded'),
    ('invalid_input', 'probe: video is 12 px wide; at least 64 px are needed'),
    ('invalid_input', 'probe: unsupported codec: prores'),
    ('invalid_input', 'probe: unsupported codec: vp9 with alpha'),
    ('invalid_input', 'probe: the video lasts 0.4 s; at least 1 s is needed'),
    ('invalid_input', 'probe: the video lasts 1 h 12 min; at most 30 min is allowed'),
    ('invalid_input', 'options: lane must be between 1 and 64'),
    ('invalid_input', 'options: hand must be left or right'),
    ('invalid_input', 'decode: truncated file: moov atom not found'),
    ('invalid_input', 'decode: frame 912 of 1800 could not be decoded (corrupt slice data)'),
    ('needs_person', 'pose: no person was found in any sampled frame'),
    ('needs_person', 'pose: the player is visible in fewer than 10 % of the frames'),
    ('needs_person', 'swings: no swing was found (the player never raised the racket above the hip)'),
    ('needs_person', 'ball: the ball was never seen on the lane'),
    ('needs_person', 'ball: lane not calibrated: mark the foul line and the pins first'),
    ('needs_person', 'target: the target face is not in the picture'),
    ('needs_person', 'arrows: no arrow was found in the target after the last shot'),
    ('needs_person', 'shots: the hoop was not found in the picture'),
    ('transient', 'storage: the video file could not be read: Input/output error'),
    ('transient', 'storage: timed out fetching the video from the coordinator after 30 s'),
    ('transient', 'postgres: could not write results: server closed the connection unexpectedly'),
    ('transient', 'redis: lease renewal failed: connection reset by peer'),
    ('transient', 'objects: the inference session ran out of memory'),
    ('transient', 'pose: the inference session ran out of memory'),
    ('internal', 'persist: results rejected by the schema: swing.speed_kmh is NaN'),
    ('internal', 'shot_metrics: the homography is singular'),
    ('internal', 'scoring: ring radii are not increasing'),
    ('internal', 'swings: contact frame after the end of the clip'),
    ('internal', 'decode: the stream changed resolution mid-clip (1920x1080 to 1280x720)'),
    ('internal', 'objects: detector output has an unexpected shape [1, 84, 0]'),
    ('stalled', 'stalled 3 times: the worker running it stopped renewing its lease (killed, hung or cut off)'),
    ('stalled', 'stage pose ran past its watchdog (600 s) and was stopped'),
    ('stalled', 'stage decode ran past its watchdog (600 s) and was stopped'),
    ('stalled', 'stage objects ran past its watchdog (600 s) and was stopped')
) AS e(kind, message);

-- One row per job: everything the inserts below need, computed once.
CREATE TEMP TABLE seed AS
WITH rows AS (
    SELECT i, i / 250 AS sub, :jobs::int AS total,
           -- Evenly over 30 days, oldest first, the last row a few seconds ago.
           now() - interval '30 days' * ((:jobs::int - i)::float8 / :jobs::int) - interval '5 seconds' AS created_at,
           abs(hashint4extended(i, 1) % 1000) AS h1, abs(hashint4extended(i, 2) % 1000) AS h2,
           abs(hashint4extended(i / 250, 3) % 1000) AS hs
    FROM generate_series(0, :jobs::int - 1) AS i
)
SELECT r.i, r.sub, r.created_at, r.h1, r.h2, c.name AS club,
       c.sports[1 + (r.h2 % array_length(c.sports, 1))] AS sport,
       CASE WHEN r.hs % 5 <> 0 THEN md5('batch' || r.sub)::uuid END AS batch_id,
       md5('video' || r.i)::uuid AS video_id, md5('job' || r.i)::uuid AS job_id,
       CASE
           WHEN r.i >= r.total - 1500 THEN 'queued'            -- a backlog, the last ~20 minutes' uploads
           WHEN r.i >= r.total - 1530 THEN 'running'
           WHEN r.i >= r.total - 1545 THEN 'retry_scheduled'
           WHEN r.h1 < 35 THEN 'failed'
           WHEN r.h1 < 55 THEN 'cancelled'
           ELSE 'succeeded'
       END AS status,
       -- Errors are skewed: a few are most of the failures.
       floor(36 * power(r.h2 / 1000.0, 2.5))::int AS error_n
FROM rows r JOIN seed_clubs c ON r.hs >= c.lo AND r.hs < c.hi;
ALTER TABLE seed ADD PRIMARY KEY (i);
ANALYZE seed;

INSERT INTO batches (id, club, sport, label, created_at, completed_at, completions)
SELECT DISTINCT ON (batch_id) batch_id, club, sport, club || ' ' || sport || ' ' || to_char(created_at, 'YYYY-MM-DD HH24:MI'),
       created_at, CASE WHEN sub < (:jobs::int - 1545) / 250 THEN created_at + interval '3 hours' END,
       CASE WHEN sub < (:jobs::int - 1545) / 250 THEN 1 ELSE 0 END
FROM seed WHERE batch_id IS NOT NULL ORDER BY batch_id, i;

-- A batch is one club's and one sport's: the sport of a batch's first job is every job's.
UPDATE seed s SET sport = b.sport FROM batches b WHERE b.id = s.batch_id AND s.sport <> b.sport;

INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width, height,
                    fps, duration_seconds, frame_count, rotation, created_at, frame_count_source)
SELECT video_id, club, md5('content' || i) || md5('hash' || i), 20000000 + h1 * 100000,
       'sha256/' || md5('content' || i) || md5('hash' || i),
       CASE h2 % 4
           WHEN 0 THEN 'IMG_' || lpad((i % 10000)::text, 4, '0') || '.MOV'
           WHEN 1 THEN sport || '-practice-' || to_char(created_at, 'YYYY-MM-DD') || '-' || (i % 1000) || '.mp4'
           WHEN 2 THEN 'PXL_' || to_char(created_at, 'YYYYMMDD_HH24MISS') || (i % 1000) || '.mp4'
           ELSE replace(club, '-', '_') || '_session' || (i % 500) || '_clip' || (h1 % 40) || '.mov'
       END,
       'mov,mp4,m4a,3gp,3g2,mj2', 'h264', 1920, 1080, 30, 20 + h1 % 100, (20 + h1 % 100) * 30, 0, created_at, 'container'
FROM seed;

INSERT INTO jobs (id, video_id, club, sport, options, status, attempt, max_attempts, worker_id, created_at, updated_at,
                  started_at, finished_at, last_error, last_error_kind, priority, failures, stalls, next_attempt_at,
                  heartbeat_at, batch_id, dedupe_key)
SELECT s.job_id, s.video_id, s.club, s.sport, '{}'::jsonb, s.status,
       CASE WHEN s.status = 'queued' THEN 0 ELSE 1 END, 3,
       CASE WHEN s.status <> 'queued' THEN 'worker-' || (s.h1 % 12) || '/' || (s.h2 % 6) END,
       s.created_at,
       CASE WHEN s.status IN ('queued', 'running', 'retry_scheduled') THEN s.created_at
            ELSE s.created_at + make_interval(secs => 40 + s.h1 % 300) END,
       CASE WHEN s.status <> 'queued' THEN s.created_at + make_interval(secs => 5) END,
       CASE WHEN s.status IN ('succeeded', 'failed', 'cancelled') THEN s.created_at + make_interval(secs => 40 + s.h1 % 300) END,
       CASE WHEN s.status IN ('failed', 'retry_scheduled') THEN e.message END,
       CASE WHEN s.status IN ('failed', 'retry_scheduled') THEN e.kind END,
       'normal', CASE WHEN s.status IN ('failed', 'retry_scheduled') THEN 1 ELSE 0 END, 0,
       CASE WHEN s.status = 'retry_scheduled' THEN now() + interval '1 hour' END,
       -- Running jobs heartbeat "now": the reconciler leaves them alone while the benchmark runs.
       CASE WHEN s.status = 'running' THEN now() + interval '1 hour' END,
       s.batch_id, CASE WHEN s.batch_id IS NOT NULL THEN 'seed-' || s.i END
FROM seed s JOIN seed_errors e ON e.n = s.error_n;

INSERT INTO job_attempts (job_id, attempt, worker_id, started_at, finished_at, outcome, error, error_kind)
SELECT j.id, 1, j.worker_id, j.started_at, j.finished_at,
       CASE j.status WHEN 'succeeded' THEN 'succeeded' WHEN 'failed' THEN 'failed' WHEN 'cancelled' THEN 'cancelled'
                     WHEN 'retry_scheduled' THEN 'retry' END,
       j.last_error, j.last_error_kind
FROM jobs j WHERE j.attempt = 1;

INSERT INTO job_stages (job_id, attempt, name, position, status, progress, frames_done, frames_planned, started_at, finished_at)
SELECT j.id, 1, st.name, st.position,
       CASE WHEN j.status = 'succeeded' THEN 'succeeded'
            WHEN j.status = 'running' THEN CASE WHEN st.position < 2 THEN 'succeeded' WHEN st.position = 2 THEN 'running' ELSE 'pending' END
            WHEN st.position = 0 THEN 'succeeded' ELSE CASE WHEN j.status = 'failed' AND st.position = 1 THEN 'failed' ELSE 'pending' END
       END,
       CASE WHEN j.status = 'succeeded' THEN 1 ELSE 0 END,
       CASE WHEN st.name IN ('decode', 'pose') THEN CASE WHEN j.status = 'succeeded' THEN 600 ELSE 0 END END,
       CASE WHEN st.name IN ('decode', 'pose') THEN 600 END,
       j.started_at + make_interval(secs => st.position * 10),
       CASE WHEN j.status = 'succeeded' THEN j.started_at + make_interval(secs => st.position * 10 + 9) END
FROM jobs j CROSS JOIN (VALUES ('probe', 0), ('decode', 1), ('pose', 2), ('persist', 3)) AS st(name, position)
WHERE j.attempt = 1;

INSERT INTO results (job_id, attempt, sport, video, result, created_at)
SELECT j.id, 1, j.sport,
       jsonb_build_object('width', 1920, 'height', 1080, 'fps', 30, 'durationSeconds', 60, 'frameCount', 1800,
                          'codec', 'h264', 'container', 'mov,mp4,m4a,3gp,3g2,mj2', 'rotation', 0,
                          'frameCountSource', 'container'),
       '{}'::jsonb, j.finished_at
FROM jobs j WHERE j.status = 'succeeded' AND j.created_at > now() - interval '2 days';

COMMIT;
-- A database in service has been vacuumed by autovacuum (visibility map set, statistics current).
VACUUM ANALYZE;

-- The server process's peak memory for this session, for the benchmark's report.
SELECT pg_backend_pid() AS seed_pid \gset
\setenv SEED_PID :seed_pid
\! grep -h VmHWM /proc/$SEED_PID/status
