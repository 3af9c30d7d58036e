-- A channel's policy (issue 53): who may start research there, with which backends and sources, within which
-- budgets, with plan review on or off, and whether schedules may post there. One row per channel; `version`
-- grows with every change, so admission (under its lock) sees whether the policy a request was prepared under
-- is still the one in force. team_id '' is the terminal's workspace (no Slack team).
CREATE TABLE channel_policies (
  team_id text NOT NULL,
  channel_id text NOT NULL,
  policy jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, channel_id)
);

-- The policy a session was admitted under (its sources and per-run budget hold for its whole run, resumed or not).
ALTER TABLE sessions ADD COLUMN policy jsonb;

-- A deleted report: its content goes at once; the row stays (its cost still counts) until RETENTION_DAYS,
-- and the outbox takes its messages, canvas and file out of Slack.
ALTER TABLE sessions ADD COLUMN deleted_at timestamptz;
ALTER TABLE sessions ADD COLUMN deleted_by text;

-- A channel's daily budget counts the paid calls and holds made there.
ALTER TABLE spend_holds ADD COLUMN channel_id text;
ALTER TABLE paid_calls ADD COLUMN channel_id text;
