-- How reading each file shared with a question went: read once per session (and those continuing it),
-- refusals said under the plan, and a read the process never finished ('reading' left behind) not tried again.
CREATE TABLE file_reads (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  key text NOT NULL,
  state text NOT NULL CHECK (state IN ('reading', 'read', 'refused')),
  note text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, key)
);
