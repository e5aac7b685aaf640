-- Each club its own video records (issue 12, guarantee 7). The same bytes uploaded by two clubs
-- are stored once (the storage key is the content hash) but recorded twice, so one club's upload
-- never tells it whether another club has the file, and a video id names one club's record.

ALTER TABLE videos ADD COLUMN club text;
ALTER TABLE videos DROP CONSTRAINT videos_content_hash_key;

-- Videos from before clubs existed belong to the club of their first job, or to 'default'.
UPDATE videos v SET club = coalesce((SELECT min(j.club) FROM jobs j WHERE j.video_id = v.id), 'default');

-- A video whose jobs came from several clubs gets one record per club, and each job moves to
-- its own club's record.
INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width, height,
                    fps, duration_seconds, frame_count, rotation, created_at, frame_count_source)
SELECT gen_random_uuid(), shared.club, v.content_hash, v.size_bytes, v.storage_key, v.original_name, v.container,
       v.codec, v.width, v.height, v.fps, v.duration_seconds, v.frame_count, v.rotation, v.created_at, v.frame_count_source
FROM (SELECT DISTINCT video_id, club FROM jobs) shared
JOIN videos v ON v.id = shared.video_id AND v.club <> shared.club;

UPDATE jobs j SET video_id = own.id
FROM videos shared_video, videos own
WHERE shared_video.id = j.video_id AND shared_video.club <> j.club
  AND own.content_hash = shared_video.content_hash AND own.club = j.club;

ALTER TABLE videos ALTER COLUMN club SET NOT NULL;
CREATE UNIQUE INDEX videos_club_content ON videos (club, content_hash);
-- `submit` asks which of many hashes a club has: the unique index above answers it.

-- A club's waiting jobs are counted at every job creation (the per-club quota).
CREATE INDEX jobs_club_waiting ON jobs (club) WHERE status IN ('queued', 'retry_scheduled');
