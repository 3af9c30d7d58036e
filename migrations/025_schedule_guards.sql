-- [Repeat…] under a report: the form carries a random token bound to who clicked and where the report is
-- shown to them (checked at the click), never a session id a payload could name.
CREATE TABLE repeat_offers (
  token uuid PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  team_id text NOT NULL,
  channel_id text NOT NULL,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repeat_offers_created ON repeat_offers (created_at);

-- A scheduled run refused at its slot (a cap, the per-person limit), waiting to be said in its channel: the
-- refusals of one owner in one place at one slot are said in one message, outside the scheduler's pass.
-- 'sending' while that message may have landed (looked for before posting again); the rows go once it has.
CREATE TABLE schedule_refusals (
  schedule_id uuid NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  slot timestamptz NOT NULL,
  owner text NOT NULL,
  channel_id text NOT NULL,
  thread_ts text NOT NULL DEFAULT '',
  sentence text NOT NULL,
  notice text NOT NULL DEFAULT 'due' CHECK (notice IN ('due', 'sending')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (schedule_id, slot)
);
CREATE INDEX schedule_refusals_slot ON schedule_refusals (slot);
