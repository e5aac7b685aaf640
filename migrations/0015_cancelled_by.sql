-- Who asked for a job's cancel ("an operator", "club north"): a coach's own cancel is not an
-- operator's. Written when the cancel is asked for; the worker that stops a running job reads it
-- for the message it records ("cancelled by club north").
ALTER TABLE jobs ADD COLUMN cancelled_by text CHECK (char_length(cancelled_by) <= 120);
