-- A new question that repeats an earlier report is offered that report before any research starts: the
-- question and where it was asked wait here until the person chooses (read it, ask it, research anyway).
CREATE TABLE reuse_offers (
  id bigserial PRIMARY KEY,
  team_id text NOT NULL,
  channel_id text NOT NULL,
  thread_ts text NOT NULL,
  requester text NOT NULL,
  question text NOT NULL,
  opener_role text NOT NULL CHECK (opener_role IN ('root', 'mention')),
  opener_ts text NOT NULL,
  turn integer NOT NULL,
  earlier_session uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  -- read, ask or research, once.
  choice text CHECK (choice IN ('read', 'ask', 'research')),
  created_at timestamptz NOT NULL DEFAULT now()
);
