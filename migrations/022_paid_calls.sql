-- Paid model calls made outside a research session and outside a question asked of a report (whether a new
-- question repeats an earlier report's, before it is offered for reuse): what each cost, counted against the
-- spending caps of the person who asked and their workspace.
CREATE TABLE paid_calls (
  id uuid PRIMARY KEY,
  requester text NOT NULL,
  team_id text,
  purpose text NOT NULL,
  cost_usd float8 NOT NULL,
  tokens integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX paid_calls_created ON paid_calls (created_at);
