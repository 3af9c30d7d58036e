-- A terminal session whose process went away (its lease lapsed, or the terminal closed) rests 'interrupted':
-- neither running nor finished, resumable from its checkpoint, and not counted against the per-person limit.
ALTER TABLE sessions DROP CONSTRAINT sessions_status_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_status_check CHECK (status IN
  ('clarifying', 'reviewing', 'queued', 'running', 'reporting', 'delivering', 'done', 'undeliverable',
   'failed', 'cancelled', 'expired', 'interrupted'));
