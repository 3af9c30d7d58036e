-- What the requester adds in the thread while research runs: the orchestrator reads new notes at each cycle.
CREATE TABLE session_steering (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_steering_session ON session_steering (session_id, id);
