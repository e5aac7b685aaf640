-- A clip keeps its own name. Videos are content-addressed: two copies of a clip under different
-- names (tue-forehand-anna.mp4, tue-rally-ben.mp4) are one video, which kept the first upload's
-- name. The name the client gave, and the label of the job or its batch, now belong to the job;
-- every view, search, report and webhook of a job reads them from here.
ALTER TABLE jobs
    ADD COLUMN file_name text CHECK (char_length(file_name) <= 255),
    ADD COLUMN label     text CHECK (char_length(label) <= 200);

-- Jobs made before this keep the name their video had, and their batch's label.
UPDATE jobs j SET file_name = v.original_name FROM videos v WHERE v.id = j.video_id;
UPDATE jobs j SET label = b.label FROM batches b WHERE b.id = j.batch_id AND b.label IS NOT NULL;

-- The dashboard's search of names moves from videos to jobs (migrations 0009 and 0010's reasons).
CREATE INDEX jobs_file_name_trgm ON jobs USING gin (file_name gin_trgm_ops) WHERE file_name IS NOT NULL;
ALTER TABLE jobs ALTER COLUMN file_name SET STATISTICS 1000;
-- Nothing searches videos by name any more.
DROP INDEX videos_name_trgm;
