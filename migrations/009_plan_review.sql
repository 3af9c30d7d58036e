-- Plan review: a session whose plan waits for the requester is 'reviewing'; its queued_at is when it starts
-- by itself ([Start now] moves it to now), and a worker claims it from then on.
ALTER TABLE sessions DROP CONSTRAINT sessions_status_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_status_check CHECK (status IN
  ('clarifying', 'reviewing', 'queued', 'running', 'reporting', 'delivering', 'done', 'undeliverable',
   'failed', 'cancelled', 'expired'));
