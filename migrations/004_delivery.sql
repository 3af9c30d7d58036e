-- Durable delivery. Research finished is not the same as delivered: a Slack session
-- is 'delivering' until its report is in front of the requester, then 'done', or
-- 'undeliverable' (with the reason) when Slack refused it past the deadline.

ALTER TABLE sessions DROP CONSTRAINT sessions_status_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_status_check CHECK (status IN
  ('clarifying', 'queued', 'running', 'reporting', 'delivering', 'done', 'undeliverable',
   'failed', 'cancelled', 'expired'));
-- How the report reached the requester when not in the thread, or why it could not.
ALTER TABLE sessions ADD COLUMN delivery_note text;

-- Uploaded files have an id, not a message ts.
ALTER TABLE slack_messages ALTER COLUMN ts DROP NOT NULL;
ALTER TABLE slack_messages ADD COLUMN file_id text;
UPDATE slack_messages SET file_id = 'unknown', ts = NULL WHERE ts = 'uploaded';

-- Every write a session makes to Slack, recorded before it is sent and delivered in
-- thread order (per session, by id) by any process with a Slack token.
CREATE TABLE slack_outbox (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  -- Idempotency key within the session: the same intent recorded twice is one intent.
  key text NOT NULL,
  op text NOT NULL CHECK (op IN ('post', 'update', 'delete', 'react', 'unreact', 'upload')),
  -- The thread role it writes (root, plan, progress, report:0, file, …).
  role text NOT NULL,
  -- A channel id, or 'dm' for the requester's direct messages.
  channel_id text NOT NULL,
  thread_ts text,
  payload jsonb NOT NULL,
  -- Part of what the requester must see (report, sources, file, failure notice):
  -- if it cannot go to the thread it goes by DM, and if not even that, the session is undeliverable.
  essential boolean NOT NULL DEFAULT false,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  -- Bumped when an edit's content is replaced while pending: only the newest version counts as sent.
  version integer NOT NULL DEFAULT 1,
  attempts integer NOT NULL DEFAULT 0,
  -- An attempt may have reached Slack without us learning its outcome: look before sending again.
  uncertain boolean NOT NULL DEFAULT false,
  -- What an upload has done so far (the file id once the bytes are up).
  progress jsonb,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  claim_expires_at timestamptz,
  last_error text,
  deadline_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  UNIQUE (session_id, key)
);
CREATE INDEX slack_outbox_pending_idx ON slack_outbox (session_id, id) WHERE state = 'pending';
