-- Research sessions and everything they own. Forward-only: later changes go in new files.

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  origin text NOT NULL CHECK (origin IN ('slack', 'cli')),
  team_id text,
  channel_id text,
  thread_ts text,
  -- A follow-up research in the same thread is the next turn.
  turn integer NOT NULL DEFAULT 1,
  requester text NOT NULL,
  question text NOT NULL,
  status text NOT NULL CHECK (status IN
    ('clarifying', 'queued', 'running', 'reporting', 'done', 'failed', 'cancelled', 'expired')),
  plan text,
  report jsonb,
  error text,
  cancel_requested_at timestamptz,
  cancelled_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (team_id, channel_id, thread_ts, turn)
);
CREATE INDEX sessions_requester_created_idx ON sessions (requester, created_at DESC);
CREATE INDEX sessions_status_idx ON sessions (status);
CREATE INDEX sessions_created_idx ON sessions (created_at);

-- Append-only, ordered per session.
CREATE TABLE session_events (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, seq)
);

-- The latest engine state of each session; a session resumes from here.
CREATE TABLE checkpoints (
  session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  phase text NOT NULL,
  cycle integer NOT NULL,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Slack messages a session owns (role -> channel + ts), so a resumed session edits them instead of posting anew.
CREATE TABLE slack_messages (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  role text NOT NULL,
  channel_id text NOT NULL,
  ts text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, role)
);

-- Slack event ids (and command/click keys) already handled; purged after a day.
CREATE TABLE processed_events (
  event_key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX processed_events_created_idx ON processed_events (created_at);

-- Tokens per phase and model, written when a session ends.
CREATE TABLE session_usage (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  purpose text NOT NULL,
  model text NOT NULL,
  calls integer NOT NULL,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  PRIMARY KEY (session_id, purpose, model)
);
