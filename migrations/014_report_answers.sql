-- Questions readers asked about a finished report, answered from its kept sources: who asked, what, the
-- answer (null when the sources did not answer it), the sources it cites and what the model call cost
-- (counted in the asker's and the workspace's spending). Deleted with the session.
CREATE TABLE report_answers (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  asker text NOT NULL,
  team_id text,
  question text NOT NULL,
  answer text,
  sources jsonb NOT NULL DEFAULT '[]',
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cost_usd double precision,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_answers_session_idx ON report_answers (session_id, id);
CREATE INDEX report_answers_asker_idx ON report_answers (asker, created_at);
