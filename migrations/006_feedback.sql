-- What readers thought of a report: one vote per person per session (a later click replaces the earlier).
CREATE TABLE session_feedback (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  value text NOT NULL CHECK (value IN ('good', 'bad')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, user_id)
);
