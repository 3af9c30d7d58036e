-- Research that repeats: a question asked again on a cadence, in its owner's time zone, each run a normal
-- session. A slot is taken by one process (next_run_at compared and set in one statement); the slot stays
-- pending until its session exists, whose id is derived from the slot, so a crash in between is made good
-- once and never twice.
CREATE TABLE schedules (
  id uuid PRIMARY KEY,
  origin text NOT NULL CHECK (origin IN ('slack', 'cli')),
  owner text NOT NULL,
  team_id text,
  channel_id text,
  question text NOT NULL,
  cadence text NOT NULL,
  cron text NOT NULL,
  time_zone text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  paused_reason text,
  next_run_at timestamptz NOT NULL,
  pending_slot timestamptz,
  pending_since timestamptz,
  failures integer NOT NULL DEFAULT 0,
  last_session_id uuid,
  last_result text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_due ON schedules (next_run_at) WHERE status = 'active';
CREATE INDEX schedules_pending ON schedules (pending_since) WHERE pending_slot IS NOT NULL;
CREATE INDEX schedules_owner ON schedules (owner, created_at);

ALTER TABLE sessions ADD COLUMN schedule_id uuid REFERENCES schedules (id) ON DELETE SET NULL;
CREATE INDEX sessions_schedule ON sessions (schedule_id, created_at) WHERE schedule_id IS NOT NULL;
