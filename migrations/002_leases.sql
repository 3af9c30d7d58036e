-- Durable execution: a session waiting for or holding a worker is its own job.
-- A worker claims a session by taking its lease and renews it with a heartbeat;
-- a crashed worker's lease runs out and another worker resumes from the checkpoint.

ALTER TABLE sessions
  ADD COLUMN queued_at timestamptz,
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_expires_at timestamptz,
  ADD COLUMN attempts integer NOT NULL DEFAULT 0;

-- What workers look for: runnable sessions in queue order.
CREATE INDEX sessions_runnable_idx ON sessions (queued_at)
  WHERE status IN ('queued', 'running', 'reporting');

-- The event log position a checkpoint covers: on resume, events after it (from the lost
-- attempt) are dropped, so the log reads as one uninterrupted run.
ALTER TABLE checkpoints ADD COLUMN event_seq integer NOT NULL DEFAULT 0;
